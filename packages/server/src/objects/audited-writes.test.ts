import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { testDatabase } from '../../test/helpers.ts'
import { openDatabase, type DatabaseHandle, type DatabaseKind } from '../db/client.ts'
import { adminAudit, objects, users } from '../db/schema.ts'

// An object change made by the console or with the master key and its audit entry commit
// together: a process killed in the middle of the write leaves both or neither, never the
// change without its entry. A child process makes the write and kills itself right after the
// object's row is written (inside the transaction) or right after the commit; the database
// is then opened again, as a restarted server would.

const child = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'test',
  'audited-write-child.ts',
)
const ACTOR = '0x00000000000000000000000000000000000000a1'
const owner = { id: 'audit-owner', address: '0x00000000000000000000000000000000000000a2' }

/** Runs the child; resolves with the signal that ended it (null when it exited by itself). */
function write(args: string[]): Promise<{ signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve) => {
    const process_ = spawn(process.execPath, [
      '--conditions=source',
      '--import',
      'tsx',
      child,
      ...args,
    ])
    let output = ''
    process_.stdout.on('data', (chunk) => (output += chunk))
    process_.stderr.on('data', (chunk) => (output += chunk))
    process_.on('exit', (code, signal) => resolve({ signal, output: `${output}(exit ${code})` }))
  })
}

/** Where a kind's database lives between processes, opened and closed around each look. */
interface Place {
  where: string
  open(): Promise<DatabaseHandle>
  done(): Promise<void>
}

async function placeOf(kind: DatabaseKind): Promise<Place> {
  if (kind === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-audit-'))
    return {
      where: dir,
      open: () => openDatabase({ kind: 'pglite', dir }),
      done: async () => fs.rmSync(dir, { recursive: true, force: true }),
    }
  }
  const database = await testDatabase('postgres')
  const url = database.url!
  return {
    where: url,
    open: async () => ({ ...(await openDatabase({ kind: 'postgres', url, poolSize: 2 })) }),
    done: () => database.close(),
  }
}

const kinds: DatabaseKind[] = process.env.PORTICO_TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite']

describe.each(kinds)('an audited write killed midway on %s', (kind) => {
  let place: Place
  const done: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const step of done) await step()
  })

  /** The object's state and its audit entries, read by a fresh process's view of the database. */
  async function look(objectId: string) {
    const database = await place.open()
    try {
      const [row] = await database.db.select().from(objects).where(eq(objects.id, objectId))
      const entries = await database.db
        .select()
        .from(adminAudit)
        .where(eq(adminAudit.target, `Note/${objectId}`))
      return { row, entries }
    } finally {
      await database.close()
    }
  }

  async function made(objectId: string) {
    place ??= await placeOf(kind).then((made) => {
      done.push(() => made.done())
      return made
    })
    const database = await place.open()
    try {
      await database.db.insert(users).values(owner).onConflictDoNothing()
      await database.db.insert(objects).values({
        className: 'Note',
        id: objectId,
        ownerId: owner.id,
        readPerm: [owner.id],
        writePerm: [owner.id],
        data: { state: 'first' },
      })
    } finally {
      await database.close()
    }
  }

  const run = (operation: 'update' | 'delete', moment: string, objectId: string) =>
    write([kind, place.where, operation, moment, 'Note', objectId, ACTOR])

  it.each(['update', 'delete'] as const)(
    'leaves neither the %s nor its entry when killed inside the transaction',
    async (operation) => {
      const objectId = `${operation}-inside`
      await made(objectId)
      const { signal, output } = await run(operation, 'in-transaction', objectId)
      expect(signal, output).toBe('SIGKILL')
      const { row, entries } = await look(objectId)
      expect(row?.data).toEqual({ state: 'first' })
      expect(entries).toEqual([])
    },
  )

  it('leaves both an update and its entry when killed once committed', async () => {
    await made('u-after')
    const { signal, output } = await run('update', 'after-commit', 'u-after')
    expect(signal, output).toBe('SIGKILL')
    const { row, entries } = await look('u-after')
    expect(row?.data).toEqual({ state: 'changed' })
    expect(entries.map((entry) => [entry.actor, entry.action])).toEqual([[ACTOR, 'object.update']])
    expect(entries[0]!.before).toMatchObject({ data: { state: 'first' } })
    expect(entries[0]!.after).toMatchObject({ data: { state: 'changed' } })
  })

  it('leaves both a delete and its entry when killed once committed, and when not killed', async () => {
    await made('d-after')
    const killed = await run('delete', 'after-commit', 'd-after')
    expect(killed.signal, killed.output).toBe('SIGKILL')
    const after = await look('d-after')
    expect(after.row).toBeUndefined()
    expect(after.entries.map((entry) => [entry.actor, entry.action])).toEqual([
      [ACTOR, 'object.delete'],
    ])
    expect(after.entries[0]!.before).toMatchObject({
      objectId: 'd-after',
      data: { state: 'first' },
    })
    await made('d-whole')
    const whole = await run('delete', 'never', 'd-whole')
    expect(whole.signal, whole.output).toBeNull()
    const gone = await look('d-whole')
    expect(gone.row).toBeUndefined()
    expect(gone.entries.map((entry) => entry.action)).toEqual(['object.delete'])
  })
})
