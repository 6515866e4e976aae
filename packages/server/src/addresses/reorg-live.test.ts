import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { token20Abi } from '@portico/test-kit/wallet-tokens'
import { databaseKinds, signedIn, startSession } from '../../test/helpers.ts'
import { listeningApp, liveSocket } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployTokens, indexConfig } from '../../test/addresses.ts'

// A live query on EthTokenTransfers through a reorg: the subscriber hears the dropped transfer's
// `delete` (the row it was told of) and its replacement's `create`, as Parse's protocol sends them.

describe.each(databaseKinds())(
  'a live query on the address classes through a reorg on %s',
  (kind) => {
    let anvil: Anvil
    beforeAll(async () => {
      anvil = await startAnvil()
    })
    afterAll(() => anvil.stop())

    it('tells the subscriber of the dropped transfer and of its replacement', async () => {
      const { first, token, send, testClient } = await deployTokens(anvil.url)
      const user = first.account.address
      const server = await listeningApp(kind, {
        rpc: rpcTestConfig({ 31337: [anvil.url] }),
        addresses: indexConfig(),
      })
      const services = server.app.services
      await startSession(services.database.db, { address: user })
      const other = (await signedIn(server.app)).user.address!.toLowerCase()
      const e20 = (fn: string, args: unknown[]) => send(first, token, token20Abi, fn, args)
      const caughtUp = async () => {
        const head = (await first.getBlockNumber({ cacheTime: 0 })).toString()
        const all = await Promise.all(
          [user, other].map((a) => services.addressIndex.progress(31337, a)),
        )
        return all.every((p) => p.status === 'SYNCED' && p.head === head)
      }
      await e20('mint', [user, 10_000n])
      await expect.poll(caughtUp, { timeout: 30_000, interval: 50 }).toBe(true)

      const socket = await liveSocket(server.serverUrl.replace(/^http/, 'ws'))
      socket.send({ op: 'connect', applicationId: 'portico' })
      socket.send({
        op: 'subscribe',
        requestId: 1,
        query: { className: 'EthTokenTransfers', where: { to_address: other } },
      })
      await expect
        .poll(() => socket.messages.some((m) => m.op === 'subscribed'), { timeout: 10_000 })
        .toBe(true)
      const events = () =>
        socket.messages
          .filter((m) => ['create', 'update', 'delete', 'enter', 'leave'].includes(String(m.op)))
          .map((m) => {
            const object = m.object as { objectId: string; value: string; block_number: number }
            return [m.op, object.value, object.objectId]
          })

      const snapshot = await testClient.snapshot()
      await e20('transfer', [other, 1000n])
      await expect
        .poll(events, { timeout: 30_000, interval: 50 })
        .toEqual([['create', '1000', expect.any(String)]])
      const dropped = events()[0]![2]
      await testClient.revert({ id: snapshot })
      await testClient.mine({ blocks: 1 })
      await e20('transfer', [other, 77n])
      await testClient.mine({ blocks: 2 })
      await expect.poll(caughtUp, { timeout: 30_000, interval: 50 }).toBe(true)
      await expect.poll(events, { timeout: 30_000, interval: 50 }).toEqual([
        ['create', '1000', dropped],
        ['delete', '1000', dropped],
        ['create', '77', expect.any(String)],
      ])
      expect(events()[2]![2]).not.toBe(dropped)
      socket.close()
      // The class holds the replacement alone.
      const rows = await server.app.inject(
        `/api/classes/EthTokenTransfers?where=${encodeURIComponent(JSON.stringify({ to_address: other }))}`,
      )
      expect(rows.json().results.map((r: { data: { value: string } }) => r.data.value)).toEqual([
        '77',
      ])
    })
  },
)
