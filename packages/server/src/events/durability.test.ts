import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { databaseKinds, testDatabase } from '../../test/helpers.ts'
import { startServer, type ServerProcess } from '../../test/server-process.ts'
import { openDatabase, type Database } from '../db/client.ts'
import { events } from '../db/schema.ts'

const running: ServerProcess[] = []
afterEach(() => running.splice(0).forEach((server) => server.child.kill('SIGKILL')))

/** Posts numbered events from `workers` parallel loops until the server stops answering. */
function flood(url: string, acknowledged: Set<number>, workers = 12) {
  let next = 0
  const worker = async () => {
    for (;;) {
      const seq = next++
      try {
        const response = await fetch(`${url}/api/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ subdomain: 'durability', event: 'tick', options: { seq } }),
        })
        if (response.status !== 202) throw new Error(`status ${response.status}`)
        acknowledged.add(seq)
      } catch {
        return // the server is gone
      }
    }
  }
  return Promise.all(Array.from({ length: workers }, worker))
}

async function storedSeqs(db: Database): Promise<Set<number>> {
  const rows = await db.select({ options: events.options }).from(events)
  return new Set(rows.map((row) => (row.options as { seq: number }).seq))
}

describe.each(databaseKinds())('event durability on %s', (kind) => {
  it('keeps every acknowledged event when the server is killed with SIGKILL mid-flood', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-durability-'))
    const database = kind === 'postgres' ? await testDatabase('postgres') : undefined
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
      EVENTS_RATE_LIMIT: '1000000',
    }
    try {
      const first = startServer(env)
      running.push(first)
      const url = await first.url
      const acknowledged = new Set<number>()
      const flooding = flood(url, acknowledged)
      while (acknowledged.size < 400) await new Promise((resolve) => setTimeout(resolve, 20))
      first.child.kill('SIGKILL')
      await flooding
      await first.exited

      // Restart on the same data: it must come up (stale lock, recovery) and keep serving.
      const second = startServer(env)
      running.push(second)
      const again = await second.url
      const after = await fetch(`${again}/api/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ subdomain: 'durability', event: 'tick', options: { seq: -1 } }),
      })
      expect(after.status).toBe(202)
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)

      const reader = database ?? (await openDatabase({ kind: 'pglite', dir: dataDir }))
      try {
        const stored = await storedSeqs(reader.db)
        const lost = [...acknowledged].filter((seq) => !stored.has(seq))
        expect(acknowledged.size).toBeGreaterThanOrEqual(400)
        expect(lost).toEqual([])
        expect(stored.has(-1)).toBe(true)
      } finally {
        await reader.close()
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }, 240_000)
})
