import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, getAddress, http, parseEther, type Hex } from 'viem'
import { foundry } from 'viem/chains'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { startLimitedNode, type LimitedNode } from '@portico/test-kit/limited-node'
import { token20Abi } from '@portico/test-kit/wallet-tokens'
import { databaseKinds, testDatabase } from '../../test/helpers.ts'
import { startServer, type ServerProcess } from '../../test/server-process.ts'
import { deployTokens, secondAccount } from '../../test/addresses.ts'

// The address index in real server processes killed without warning (kill -9): a restart
// resumes the backfill with every transfer and transaction once, and the balance the token
// answers; on PostgreSQL two processes index each chain with one writer, and the other takes
// over when it dies. The node refuses wide log ranges, so a backfill takes many steps.

const MASTER_KEY = 'master-key-for-address-processes'
const OTHER = getAddress('0x00000000000000000000000000000000000000bb')
const watched = [secondAccount.address.toLowerCase(), OTHER.toLowerCase()]

interface IndexHealth {
  writer: boolean
  rows: number
  mode: string
  head: string | null
  syncing: number
}
const health = async (url: string): Promise<IndexHealth | undefined> =>
  ((await (await fetch(`${url}/api/health`)).json()) as { addressIndex?: IndexHealth[] })
    .addressIndex?.[0]

async function call(url: string, method: string, route: string, body?: unknown) {
  const answer = await fetch(`${url}/server/${route}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-parse-application-id': 'portico',
      'x-parse-master-key': MASTER_KEY,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const json = (await answer.json()) as { results?: Record<string, unknown>[]; error?: string }
  if (!answer.ok) throw new Error(`${route}: ${answer.status} ${JSON.stringify(json)}`)
  return json
}
const rows = async (url: string, className: string) =>
  (await call(url, 'GET', `classes/${className}?limit=10000`)).results!

describe.each(databaseKinds())('the address index in server processes on %s', (kind) => {
  let anvil: Anvil
  let limited: LimitedNode
  const servers: ServerProcess[] = []
  beforeAll(async () => {
    anvil = await startAnvil()
    limited = await startLimitedNode(anvil.url, 40)
  })
  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL')
    await limited.close()
    await anvil.stop()
  })

  async function environment() {
    const chain = await deployTokens(anvil.url)
    const database = kind === 'postgres' ? await testDatabase('postgres') : undefined
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-addresses-'))
    const env = {
      MASTER_KEY,
      ADDRESS_INDEX_CHAINS: '31337',
      ADDRESS_INDEX_CONFIRMATIONS_31337: '1',
      ADDRESS_INDEX_POLL_MS: '50',
      RPC_URL_31337: limited.url,
      ALLOWED_CHAIN_IDS: '31337',
      ...(database ? { DATABASE_URL: database.url! } : { DATA_DIR: dataDir }),
    }
    return { chain, env }
  }
  const launch = (env: Record<string, string>) => {
    const server = startServer(env)
    servers.push(server)
    return server
  }
  const watch = async (url: string) => {
    for (const address of watched)
      await call(url, 'POST', 'functions/watchEthAddress', { address, sync_historical: true })
  }

  /** What the chain holds for the watched addresses, read whole from the node itself. */
  async function onChain(token: Hex) {
    const client = createPublicClient({ chain: foundry, transport: http(anvil.url) })
    const head = await client.getBlockNumber({ cacheTime: 0 })
    const logs = await client.getContractEvents({
      address: token,
      abi: token20Abi,
      eventName: 'Transfer',
      fromBlock: 0n,
      toBlock: head,
    })
    const transfers = logs
      .filter((log) => [log.args.from, log.args.to].some((a) => watched.includes(a!.toLowerCase())))
      .map((log) => `${log.transactionHash}:${log.logIndex}`)
    const balance = (await client.readContract({
      address: token,
      abi: token20Abi,
      functionName: 'balanceOf',
      args: [secondAccount.address],
      blockNumber: head,
    })) as bigint
    return { head: head.toString(), transfers: transfers.sort(), balance: balance.toString() }
  }

  /** The index's rows for the watched addresses, once it has read to the chain's head. */
  async function indexed(url: string, token: Hex) {
    const chain = await onChain(token)
    await expect
      .poll(async () => health(url), { timeout: 60_000, interval: 200 })
      .toMatchObject({ head: chain.head, syncing: 0, mode: 'following' })
    const transfers = (await rows(url, 'EthTokenTransfers'))
      .filter((row) => row.token_address === token.toLowerCase())
      .map((row) => `${String(row.transaction_hash)}:${String(row.log_index)}`)
      .sort()
    const transactions = (await rows(url, 'EthTransactions')).map((row) => String(row.hash))
    const balance = (await rows(url, 'EthTokenBalance')).find(
      (row) =>
        row.address === secondAccount.address.toLowerCase() &&
        row.token_address === token.toLowerCase(),
    )?.balance
    return { chain, transfers, transactions, balance }
  }

  it('resumes a backfill killed with -9, with every transfer once', async () => {
    const { chain, env } = await environment()
    const { first, second, token, send, testClient } = chain
    const sent: Hex[] = []
    for (let i = 0; i < 30; i++) {
      await send(first, token, token20Abi, 'mint', [secondAccount.address, 2n ** 130n + BigInt(i)])
      const receipt = await send(second, token, token20Abi, 'transfer', [OTHER, BigInt(i + 1)])
      sent.push(receipt.transactionHash)
      if (i % 5 === 0) {
        const hash = await second.sendTransaction({ to: OTHER, value: parseEther('0.01') })
        await second.waitForTransactionReceipt({ hash })
        sent.push(hash)
      }
      await testClient.mine({ blocks: 25 })
    }
    // The node stops answering logs after a few ranges: the process is caught midway through
    // its backfill however fast the machine is.
    limited.answerLogs = 40
    const first1 = launch(env)
    const url = await first1.url
    await watch(url)
    let seen: IndexHealth | undefined
    await expect
      .poll(
        async () => {
          seen = await health(url)
          return seen?.rows ?? 0
        },
        { timeout: 30_000, interval: 10 },
      )
      .toBeGreaterThan(0)
    first1.child.kill('SIGKILL')
    limited.release()
    await first1.exited
    // Killed mid-backfill, not after it.
    expect(seen?.mode).toBe('backfill')

    const restarted = launch(env)
    const again = await restarted.url
    const { chain: truth, transfers, transactions, balance } = await indexed(again, token)
    expect(truth.transfers).toHaveLength(60)
    expect(transfers).toEqual(truth.transfers)
    expect(transactions.sort()).toEqual([...sent].sort())
    expect(balance).toBe(truth.balance)
    restarted.child.kill('SIGKILL')
  })

  it.runIf(kind === 'postgres')(
    'indexes a chain in one of two processes, and the other takes over after kill -9',
    async () => {
      const { chain, env } = await environment()
      const { first, second, token, send } = chain
      await send(first, token, token20Abi, 'mint', [secondAccount.address, 2n ** 200n])
      await send(second, token, token20Abi, 'transfer', [OTHER, 5n])
      const one = launch(env)
      const two = launch(env)
      const urls = await Promise.all([one.url, two.url])
      await watch(urls[0]!)
      const writers = async () =>
        Promise.all(urls.map(async (url) => (await health(url))?.writer ?? false))
      await expect
        .poll(writers, { timeout: 20_000 })
        .toSatisfy((w: boolean[]) => w.filter(Boolean).length === 1)
      const [oneWrites] = await writers()
      const [writer, other, writerUrl, otherUrl] = oneWrites
        ? [one, two, urls[0]!, urls[1]!]
        : [two, one, urls[1]!, urls[0]!]
      const before = await indexed(writerUrl, token)
      expect(before.transfers).toEqual(before.chain.transfers)
      expect(before.transfers).toHaveLength(2)
      // The other process reads the same rows, once each.
      const elsewhere = (await rows(otherUrl, 'EthTokenTransfers'))
        .filter((row) => row.token_address === token.toLowerCase())
        .map((row) => `${String(row.transaction_hash)}:${String(row.log_index)}`)
      expect(elsewhere.sort()).toEqual(before.transfers)
      // The process that does not write has written nothing.
      expect((await health(otherUrl))?.rows).toBe(0)
      writer.child.kill('SIGKILL')
      await writer.exited
      await send(second, token, token20Abi, 'transfer', [OTHER, 6n])
      await expect
        .poll(async () => (await health(otherUrl))?.writer, { timeout: 20_000 })
        .toBe(true)
      const after = await indexed(otherUrl, token)
      expect(after.transfers).toHaveLength(3)
      expect(after.transfers).toEqual(after.chain.transfers)
      expect(after.balance).toBe(after.chain.balance)
      other.child.kill('SIGKILL')
    },
  )
})
