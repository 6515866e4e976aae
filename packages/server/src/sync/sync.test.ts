import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { getAddress, type Address } from 'viem'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { startLimitedNode, type LimitedNode } from '@portico/test-kit/limited-node'
import { databaseKinds, testApp, testConfig, testDatabase } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployEmitter } from '../../test/sync.ts'
import { buildServer } from '../app.ts'
import type { LiveHub } from '../live/hub.ts'
import { sql } from 'drizzle-orm'
import type { DatabaseKind } from '../db/client.ts'

// Contract-event sync against anvil, with a contract this test deploys.

const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/sync-module.mjs',
)
const recipient = getAddress('0x00000000000000000000000000000000000000aa')

type Row = Record<string, unknown> & { objectId: string }

/** Every row of the synced class, straight from the store. */
async function rows(app: FastifyInstance): Promise<Row[]> {
  const all: Row[] = []
  let skip = 0
  for (;;) {
    const page = await app.inject(
      `/api/classes/Activity?limit=1000&skip=${skip}&order=blockNumber,logIndex`,
    )
    const results = page.json<{ results: { objectId: string; data: Record<string, unknown> }[] }>()
      .results
    all.push(...results.map((r) => ({ objectId: r.objectId, ...r.data })))
    if (results.length < 1000) break
    skip += 1000
  }
  return all
}

async function syncedApp(
  kind: DatabaseKind,
  upstream: string,
  env: { address: Address; confirmations?: number; start?: bigint; maxRange?: number },
  database?: Awaited<ReturnType<typeof testDatabase>>,
) {
  process.env.SYNC_ADDRESS = env.address
  process.env.SYNC_CONFIRMATIONS = String(env.confirmations ?? 1)
  process.env.SYNC_START_BLOCK = String(env.start ?? 0n)
  process.env.SYNC_MAX_RANGE = String(env.maxRange ?? 10_000)
  const overrides = { rpc: rpcTestConfig({ 31337: [upstream] }), functionsModule: fixture }
  if (!database) return (await testApp(kind, overrides)).app
  const app = await buildServer({ config: testConfig(overrides), database, logger: false })
  await app.ready()
  return app
}

describe.each(databaseKinds())('contract event sync on %s', (kind) => {
  let anvil: Anvil
  let limited: LimitedNode
  beforeAll(async () => {
    anvil = await startAnvil()
    limited = await startLimitedNode(anvil.url, 40)
  })
  afterAll(async () => {
    await limited.close()
    await anvil.stop()
  })

  it('backfills thousands of events across many blocks through a node that refuses large ranges, each once, exact', async () => {
    const emitter = await deployEmitter(anvil.url)
    const base = 2n ** 60n + 7n
    const expected: bigint[] = []
    for (let batch = 0; batch < 6; batch++) {
      await emitter.send('mintMany', [recipient, 500n, base + BigInt(batch) * 1000n])
      for (let i = 0n; i < 500n; i++) expected.push(base + BigInt(batch) * 1000n + i)
      await emitter.testClient.mine({ blocks: 150 })
    }
    const max = 2n ** 256n - 1n
    await emitter.send('mint', [recipient, max])
    await emitter.send('note', [2n ** 200n, 'hello', true, -5n])
    const app = await syncedApp(kind, limited.url, { address: emitter.address })

    // Health says `backfill` as long as blocks are left to read (the chain stands still here).
    const seen: { mode: string; blocksLeft: string | undefined }[] = []
    const deadline = Date.now() + 50_000
    for (;;) {
      const status = app.services.syncStatus()[0]
      if (status) seen.push({ mode: status.mode, blocksLeft: status.blocksLeft })
      if (status?.rows === 3002 && status.mode === 'following') break
      if (Date.now() > deadline) throw new Error(`the sync is still at ${JSON.stringify(status)}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(
      seen.filter((s) => s.mode === 'backfill' && s.blocksLeft !== undefined).length,
    ).toBeGreaterThan(3)
    expect(seen.filter((s) => s.mode === 'following' && s.blocksLeft !== '0')).toEqual([])
    expect((await rows(app)).length).toBe(3002)
    const all = await rows(app)
    const transfers = all.filter((row) => row.event === 'Transfer')
    expect(transfers.map((row) => row.value)).toEqual([...expected, max].map(String))
    expect(
      new Set(all.map((row) => `${String(row.transactionHash)}:${String(row.logIndex)}`)).size,
    ).toBe(3002)
    expect(transfers[0]).toMatchObject({
      from: '0x0000000000000000000000000000000000000000',
      to: recipient,
      chainId: 31337,
      address: emitter.address,
      confirmed: true,
      blockTimestamp: { __type: 'Date', iso: expect.any(String) },
    })
    const note = all.find((row) => row.event === 'Note')!
    expect(note).toMatchObject({ id: String(2n ** 200n), text: 'hello', flag: true, delta: '-5' })
    // The node refused the first ranges; the sync shrank them until they passed.
    expect(limited.ranges.some((range) => range.refused)).toBe(true)
    expect(
      limited.ranges.filter((range) => !range.refused).every((range) => range.blocks <= 40),
    ).toBe(true)
    expect(app.services.syncStatus()[0]).toMatchObject({
      mode: 'following',
      writer: true,
      lastError: undefined,
    })
    const health = (await app.inject('/api/health')).json<{
      syncs: { name: string; mode: string }[]
    }>()
    expect(health.syncs).toEqual([expect.objectContaining({ name: 'emitter', mode: 'following' })])
  })

  it('marks rows confirmed once enough blocks follow, and a reorg drops and rewrites rows, live', async () => {
    const emitter = await deployEmitter(anvil.url)
    const start = await emitter.wallet.getBlockNumber()
    const app = await syncedApp(kind, anvil.url, {
      address: emitter.address,
      confirmations: 3,
      start,
    })
    const events: string[] = []
    const hub: LiveHub = app.services.liveHub
    hub.add({
      className: 'Activity',
      viewerId: undefined,
      condition: undefined,
      send: (event, object) =>
        events.push(`${event}:${String(object.data.value)}:${String(object.data.confirmed)}`),
    })

    await emitter.send('mint', [recipient, 1n])
    await expect.poll(async () => (await rows(app)).map((row) => row.confirmed)).toEqual([false])
    await emitter.testClient.mine({ blocks: 2 })
    await expect.poll(async () => (await rows(app)).map((row) => row.confirmed)).toEqual([true])

    // A reorg: the chain goes back before a mint and grows another way.
    const snapshot = await emitter.testClient.snapshot()
    await emitter.send('mint', [recipient, 2n])
    await expect.poll(async () => (await rows(app)).map((row) => row.value)).toEqual(['1', '2'])
    await emitter.testClient.revert({ id: snapshot })
    await emitter.testClient.mine({ blocks: 1 })
    await emitter.send('mint', [recipient, 3n])
    await expect
      .poll(async () => (await rows(app)).map((row) => row.value), { timeout: 15_000 })
      .toEqual(['1', '3'])
    // On PostgreSQL changes reach the hub through LISTEN, a moment after they are stored.
    await expect
      .poll(() => events)
      .toEqual([
        'create:1:false',
        'update:1:true',
        'create:2:false',
        'delete:2:false',
        'create:3:false',
      ])
  })

  it('resumes after a stop in the middle of a backfill with nothing missing or doubled', async () => {
    const emitter = await deployEmitter(anvil.url)
    const start = await emitter.wallet.getBlockNumber()
    for (let batch = 0; batch < 4; batch++) {
      await emitter.send('mintMany', [recipient, 300n, BigInt(batch) * 1000n])
      await emitter.testClient.mine({ blocks: 200 })
    }
    const database = await testDatabase(kind)
    // Small ranges, so that the stop comes in the middle.
    const env = { address: emitter.address, start, maxRange: 10 }
    const first = await syncedApp(kind, limited.url, env, database)
    await expect
      .poll(() => first.services.syncStatus()[0]?.rows ?? 0, { timeout: 30_000, interval: 5 })
      .toBeGreaterThan(0)
    await first.close()
    const stored = await database.db.execute(
      sql`select count(*)::int as n from objects where class_name = 'Activity'`,
    )
    expect((stored as unknown as { rows: { n: number }[] }).rows[0]!.n).toBeLessThan(1200)
    const second = await syncedApp(kind, limited.url, env, database)
    await expect
      .poll(async () => (await rows(second)).length, { timeout: 40_000, interval: 500 })
      .toBe(1200)
    const all = await rows(second)
    expect(new Set(all.map((row) => row.objectId)).size).toBe(1200)
    expect(all.map((row) => Number(row.value)).sort((a, b) => a - b)).toEqual(
      [0, 1, 2, 3].flatMap((batch) => Array.from({ length: 300 }, (_, i) => batch * 1000 + i)),
    )
    await second.close()
    await database.close()
  })
})
