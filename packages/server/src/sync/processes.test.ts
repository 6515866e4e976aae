import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { getAddress } from 'viem'
import {
  createBackendClient,
  subscribe,
  type ObjectData,
  type WebSocketClass,
} from '@portico/sdk/backend'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { startLimitedNode, type LimitedNode } from '@portico/test-kit/limited-node'
import { databaseKinds, testDatabase } from '../../test/helpers.ts'
import { startServer, type ServerProcess } from '../../test/server-process.ts'
import { deployEmitter } from '../../test/sync.ts'
import { CREATES_AS_IDS } from '../objects/changes.ts'

// The sync in real server processes killed without warning (kill -9): a restart resumes with
// nothing missing or doubled, and on PostgreSQL another process takes over; a live subscriber
// connected to another process on the same PostgreSQL receives every row of the sync's ranges.

const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/sync-module.mjs',
)
const recipient = getAddress('0x00000000000000000000000000000000000000cc')

interface Health {
  syncs?: { writer: boolean; rows: number; mode: string }[]
}
const health = async (url: string): Promise<Health> =>
  (await fetch(`${url}/api/health`)).json() as Promise<Health>
const stored = async (url: string): Promise<number> =>
  ((await (await fetch(`${url}/api/classes/Activity?limit=0&count=1`)).json()) as { count: number })
    .count

describe.each(databaseKinds())('contract sync in server processes on %s', (kind) => {
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

  async function environment(node = limited.url) {
    const emitter = await deployEmitter(anvil.url)
    const start = await emitter.wallet.getBlockNumber()
    const database = kind === 'postgres' ? await testDatabase('postgres') : undefined
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-sync-'))
    const env = {
      FUNCTIONS_MODULE: fixture,
      SYNC_ADDRESS: emitter.address,
      SYNC_START_BLOCK: String(start),
      RPC_URL_31337: node,
      ALLOWED_CHAIN_IDS: '31337',
      ...(database ? { DATABASE_URL: database.url! } : { DATA_DIR: dataDir }),
    }
    return { emitter, env }
  }
  const launch = (env: Record<string, string>) => {
    const server = startServer(env)
    servers.push(server)
    return server
  }

  it('resumes a backfill killed with -9, with every event once', async () => {
    const { emitter, env } = await environment()
    for (let batch = 0; batch < 4; batch++) {
      await emitter.send('mintMany', [recipient, 250n, BigInt(batch) * 1000n])
      await emitter.testClient.mine({ blocks: 150 })
    }
    const first = launch(env)
    const url = await first.url
    await expect
      .poll(async () => (await health(url)).syncs?.[0]?.rows ?? 0, {
        timeout: 30_000,
        interval: 20,
      })
      .toBeGreaterThan(0)
    first.child.kill('SIGKILL')
    await first.exited
    const second = launch(env)
    const again = await second.url
    await expect.poll(() => stored(again), { timeout: 40_000, interval: 300 }).toBe(1000)
    const page = (await (
      await fetch(`${again}/api/classes/Activity?limit=1000&order=blockNumber,logIndex`)
    ).json()) as {
      results: { data: { value: string } }[]
    }
    expect(page.results.map((r) => Number(r.data.value)).sort((a, b) => a - b)).toEqual(
      [0, 1, 2, 3].flatMap((batch) => Array.from({ length: 250 }, (_, i) => batch * 1000 + i)),
    )
    second.child.kill('SIGKILL')
  })

  it.runIf(kind === 'postgres')(
    'runs each sync in one of two processes, and the other takes over after kill -9',
    async () => {
      const { emitter, env } = await environment()
      await emitter.send('mint', [recipient, 1n])
      const one = launch(env)
      const two = launch(env)
      const urls = await Promise.all([one.url, two.url])
      const writers = async () =>
        Promise.all(urls.map(async (url) => (await health(url)).syncs?.[0]?.writer ?? false))
      await expect
        .poll(writers, { timeout: 20_000 })
        .toSatisfy((w: boolean[]) => w.filter(Boolean).length === 1)
      await expect.poll(() => stored(urls[0]!), { timeout: 20_000 }).toBe(1)
      const [oneWrites] = await writers()
      const [writer, other, otherUrl] = oneWrites ? [one, two, urls[1]!] : [two, one, urls[0]!]
      writer.child.kill('SIGKILL')
      await writer.exited
      await emitter.send('mint', [recipient, 2n])
      await expect
        .poll(async () => (await health(otherUrl)).syncs?.[0]?.writer, { timeout: 20_000 })
        .toBe(true)
      await expect.poll(() => stored(otherUrl), { timeout: 20_000 }).toBe(2)
      other.child.kill('SIGKILL')
    },
  )

  it.runIf(kind === 'postgres')(
    'delivers every row of a range to a live subscriber on another process',
    async () => {
      // Ranges of many creates travel between processes as lists of ids, each process reading
      // the rows its subscribers want; the node answers whole ranges (no answer-size limit).
      const perTransaction = 150
      expect(perTransaction).toBeGreaterThanOrEqual(CREATES_AS_IDS)
      const { emitter, env } = await environment(anvil.url)
      const { FUNCTIONS_MODULE: _module, ...withoutSync } = env
      // The second process runs no sync: every row it tells its subscriber came from the first.
      // Started together; the events are mined only once the subscription is confirmed.
      const reader = launch(withoutSync)
      const writer = launch(env)
      const client = createBackendClient({
        serverUrl: await reader.url,
        appId: 'portico',
        WebSocket: WebSocket as unknown as WebSocketClass,
      })
      const heard: { event: string; data: ObjectData }[] = []
      const live = subscribe(
        client,
        { className: 'Activity' },
        { onEvent: (event, object) => heard.push({ event, data: object.data }) },
      )
      await live.ready
      const writerUrl = await writer.url

      const expected: string[] = []
      for (let batch = 0; batch < 2; batch++) {
        const receipt = await emitter.send('mintMany', [
          recipient,
          BigInt(perTransaction),
          BigInt(batch) * 1000n,
        ])
        for (const log of receipt.logs) expected.push(`${log.transactionHash}:${log.logIndex}`)
        await emitter.testClient.mine({ blocks: 2 })
      }
      expect(expected).toHaveLength(2 * perTransaction)
      await expect
        .poll(() => stored(writerUrl), { timeout: 30_000, interval: 200 })
        .toBe(expected.length)
      await expect
        .poll(() => heard.length, { timeout: 20_000, interval: 100 })
        .toBeGreaterThanOrEqual(expected.length)
      expect(heard.map((h) => h.event)).toEqual(expected.map(() => 'create'))
      expect(
        heard.map((h) => `${String(h.data.transactionHash)}:${String(h.data.logIndex)}`).sort(),
      ).toEqual([...expected].sort())
      expect(heard.map((h) => Number(h.data.value)).sort((a, b) => a - b)).toEqual(
        [0, 1].flatMap((batch) =>
          Array.from({ length: perTransaction }, (_, i) => batch * 1000 + i),
        ),
      )
      live.unsubscribe()
      client.close()
      writer.child.kill('SIGKILL')
      reader.child.kill('SIGKILL')
    },
  )
})
