import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { migrationsFolder, openDatabase } from './client.ts'
import { saveTemplate, templateKey, templateName, unpackTemplate } from './pglite-template.ts'

// A new embedded database starts from a template of the migrated one (written by the first
// database created, or by the build), never from one made for another schema.

const folders: string[] = []
const folder = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-template-test-'))
  folders.push(dir)
  return dir
}
afterAll(() => folders.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

describe('the embedded database template', () => {
  it('is made from a migrated database, unpacked into a new data directory, and opens ready', async () => {
    const made = folder()
    const first = await openDatabase({ kind: 'pglite', dir: made })
    await first.db.execute(sql`insert into users (id, address) values ('u', '0x01')`)
    await first.db.execute(sql`checkpoint`)
    const key = templateKey(migrationsFolder)
    const templates = folder()
    const file = saveTemplate(path.join(made, 'pglite'), key, templates)
    expect(path.basename(file)).toBe(templateName(key))
    await first.close()

    const target = path.join(folder(), 'pglite')
    expect(await unpackTemplate(target, key, [templates])).toBe(true)
    // The write-ahead log is a hole but for its written pages: its size, not its bytes.
    const wal = fs
      .readdirSync(path.join(target, 'pg_wal'))
      .find((name) => /^[0-9A-F]{24}$/.test(name))!
    const stat = fs.statSync(path.join(target, 'pg_wal', wal))
    expect(stat.size).toBe(16 * 2 ** 20)
    expect(stat.blocks * 512).toBeLessThan(stat.size)
    const opened = await openDatabase({ kind: 'pglite', dir: path.dirname(target) })
    const rows = await opened.db.execute(sql`select id from users`)
    expect((rows as unknown as { rows: { id: string }[] }).rows).toEqual([{ id: 'u' }])
    await opened.close()
    // An existing database is left alone; a template for another schema is not used.
    expect(await unpackTemplate(target, key, [templates])).toBe(false)
    expect(await unpackTemplate(path.join(folder(), 'pglite'), 'another', [templates])).toBe(false)
  })
})
