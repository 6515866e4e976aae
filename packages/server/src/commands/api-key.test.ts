import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../db/client.ts'
import { hashApiKey } from '../rpc/api-keys.ts'
import { apiKeys } from '../db/schema.ts'
import { apiKeyCommand } from './api-key.ts'
import { UsageError } from './database.ts'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-apikey-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

async function run(...argv: string[]): Promise<string[]> {
  const lines: string[] = []
  await apiKeyCommand(argv, { env: { DATA_DIR: dataDir }, print: (line) => lines.push(line) })
  return lines
}

describe('portico api-key', () => {
  // Several file-backed database openings: generous time-out for a busy machine.
  it(
    'creates a key, prints it once, stores only its SHA-256, lists and revokes it',
    { timeout: 90_000 },
    async () => {
      const created = await run('create', '--label', 'dashboard')
      const key = created[1]!
      expect(key).toMatch(/^pk_[\w-]{32}$/)
      const id = /(key_[0-9a-f]+)/.exec(created[0]!)![1]!

      const listed = await run('list')
      expect(listed.join('\n')).toContain(`${id}\tdashboard`)
      expect(listed.join('\n')).not.toContain(key)

      const database = await openDatabase({ kind: 'pglite', dir: dataDir })
      try {
        const rows = await database.db.select().from(apiKeys)
        expect(rows.map((r) => r.keyHash)).toEqual([hashApiKey(key)])
        expect(JSON.stringify(rows)).not.toContain(key)
      } finally {
        await database.close()
      }

      expect(await run('revoke', id)).toEqual([
        `Revoked ${id}. Servers stop accepting it within 30 seconds.`,
      ])
      expect((await run('list'))[0]).toContain('revoked')
    },
  )

  it('explains what is missing', async () => {
    await expect(run('create')).rejects.toThrow(UsageError)
    await expect(run('frobnicate')).rejects.toThrow(/Usage/)
    await expect(run('revoke', 'key_nope')).rejects.toThrow('No active API key with id key_nope.')
  })
})
