// @vitest-environment happy-dom
import { StrictMode } from 'react'
import { cleanup, render, screen } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { formatEther } from 'viem'
import { createPortico } from '@portico/sdk/portico'
import { anvilAccount, anvilChainId, startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { startTestServer, type TestServer } from '@portico/test-kit/http-server'
import { PorticoProvider } from './portico-provider.ts'
import { useNode } from './use-node.ts'

// useNode against a real chain (anvil), through a pass-through node that counts the calls.

let anvil: Anvil
let node: TestServer
const calls: string[] = []
const count = (method: string) => calls.filter((call) => call === method).length

beforeAll(async () => {
  anvil = await startAnvil()
  node = await startTestServer(async ({ req, res, body }) => {
    // The test page has an origin of its own: answer like a node that allows browsers.
    const cors = {
      // One request per connection: closing the node never cuts a kept-alive one.
      connection: 'close',
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': 'POST',
    }
    if (req.method === 'OPTIONS') return res.writeHead(204, cors).end()
    const parsed = JSON.parse(body.toString()) as { method: string } | { method: string }[]
    for (const call of [parsed].flat()) calls.push(call.method)
    const answer = await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body.toString(),
    })
    res.writeHead(answer.status, { ...cors, 'content-type': 'application/json' })
    res.end(await answer.text())
  })
})
afterAll(async () => {
  await node?.close()
  await anvil?.stop()
})
afterEach(cleanup)

function Reading({ address, label }: { address?: `0x${string}`; label: string }) {
  const reading = useNode({ chainId: anvilChainId, address })
  if (reading.isLoading) return <p>{label} loading</p>
  return (
    <p>
      {label} block {String(reading.blockNumber)}
      {reading.balance === undefined ? '' : `, ${formatEther(reading.balance)} ETH`}
    </p>
  )
}

/** A call straight to anvil (not counted). */
async function rpc(method: string): Promise<string> {
  const answer = await fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
  })
  return ((await answer.json()) as { result: string }).result
}

describe('useNode', () => {
  it('polls the block number once for every component, and reads a balance once per block', async () => {
    const portico = createPortico({
      serverUrl: 'http://app.test',
      appId: 'test',
      chains: [{ id: anvilChainId, rpcUrl: node.url }],
    })
    const start = Number(await rpc('eth_blockNumber'))
    calls.length = 0
    const view = render(
      <StrictMode>
        <PorticoProvider portico={portico}>
          <Reading label="a" address={anvilAccount.address} />
          <Reading label="b" address={anvilAccount.address} />
          <Reading label="c" />
        </PorticoProvider>
      </StrictMode>,
    )
    expect(screen.getByText('a loading')).toBeTruthy()
    expect(await screen.findByText(`a block ${start}, 10000 ETH`)).toBeTruthy()
    expect(screen.getByText(`b block ${start}, 10000 ETH`)).toBeTruthy()
    expect(screen.getByText(`c block ${start}`)).toBeTruthy()
    expect([count('eth_blockNumber'), count('eth_getBalance')]).toEqual([1, 1])

    await rpc('evm_mine')
    // The next poll (every 4000 ms) sees the new block; the balance is read at it.
    expect(
      await screen.findByText(`a block ${start + 1}, 10000 ETH`, {}, { timeout: 6000 }),
    ).toBeTruthy()
    expect(screen.getByText(`c block ${start + 1}`)).toBeTruthy()
    await expect.poll(() => count('eth_getBalance')).toBe(2)
    expect(count('eth_blockNumber')).toBe(2)

    // Gone with the last component: no more polls.
    view.unmount()
    const before = calls.length
    await new Promise((resolve) => setTimeout(resolve, 4500))
    expect(calls.length).toBe(before)
  }, 20_000)

  it('waits for a chain', () => {
    function NoChain() {
      const reading = useNode({ chainId: undefined })
      return <p>{String(reading.isLoading)}</p>
    }
    const portico = createPortico({ serverUrl: 'http://app.test', appId: 'test', chains: [] })
    render(
      <PorticoProvider portico={portico}>
        <NoChain />
      </PorticoProvider>,
    )
    expect(screen.getByText('true')).toBeTruthy()
  })
})
