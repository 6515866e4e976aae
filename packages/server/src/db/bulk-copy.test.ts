import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { databaseKinds, testDatabase } from '../../test/helpers.ts'
import { TransactionWrites } from '../objects/transaction-writes.ts'
import type { ObjectChange } from '../objects/changes.ts'
import { COPY_CHUNK_ROWS, copyRows } from './bulk-copy.ts'
import { rowsOf } from './client.ts'
import { users } from './schema.ts'

// The server's own bulk writes (a range of synced events) go through COPY: the rows must come back exactly as written, whatever their text holds, and an id
// already taken must leave its object alone, as the insert does.

const tricky = (n: number) => ({
  note: `tab\there, line\nbreak, cr\r, backslash \\ and \\N, quote " and {braces}, é 😀 ${n}`,
  list: ['a"b', 'c\\d', null, { nested: '\\t' }],
  n,
})

describe.each(databaseKinds())('bulk writes of new objects on %s', (kind) => {
  it('writes many rows exactly, and leaves the objects of ids already taken alone', async () => {
    const database = await testDatabase(kind)
    try {
      const db = database.db
      await db.insert(users).values({ id: 'writer', address: '0x' + '1'.repeat(40) })
      const access = { ownerId: 'writer', acl: { '*': { read: true as const } } }
      const first = Array.from({ length: 60 }, (_, n) => ({ id: `o${n}`, data: tricky(n) }))
      const changes: ObjectChange[] = []
      const made = await db.transaction((tx) =>
        new TransactionWrites(tx, changes).insertNew('Note', access, first, new Date()),
      )
      expect(made.map((o) => o.objectId)).toEqual(first.map((row) => row.id))
      expect(changes).toHaveLength(60)
      // Half of these ids are taken: only the other half is written.
      const second = Array.from({ length: 60 }, (_, n) => ({
        id: `o${n + 30}`,
        data: { replaced: true },
      }))
      const more = await db.transaction((tx) =>
        new TransactionWrites(tx, []).insertNew('Note', access, second, new Date()),
      )
      expect(more.map((o) => o.objectId).sort()).toEqual(
        second
          .slice(30)
          .map((row) => row.id)
          .sort(),
      )
      const stored = rowsOf<{ id: string; data: unknown; read_perm: string[] }>(
        await db.execute(
          sql`select id, data, read_perm from objects where class_name = 'Note' order by id`,
        ),
      )
      expect(stored).toHaveLength(90)
      const byId = new Map(stored.map((row) => [row.id, row]))
      for (const row of first) expect(byId.get(row.id)!.data).toEqual(row.data)
      for (const row of second.slice(30)) expect(byId.get(row.id)!.data).toEqual(row.data)
      expect(byId.get('o0')!.read_perm).toEqual(['*'])
    } finally {
      await database.close()
    }
  })

  it('copies within a transaction, and writes nothing when a row breaks a constraint', async () => {
    const database = await testDatabase(kind)
    try {
      const db = database.db
      const columns = ['id', 'address']
      const copy = (rows: string[][]) =>
        db.transaction((tx) => copyRows(tx, 'users', columns, rows))
      expect(
        await copy([
          ['u1', '0xa'],
          ['u2', '0xb'],
        ]),
      ).toBe(true)
      // u1 again: nothing of this copy is written (u3 neither).
      expect(
        await copy([
          ['u3', '0xc'],
          ['u1', '0xd'],
        ]),
      ).toBe(false)
      const ids = (await db.select({ id: users.id }).from(users)).map((u) => u.id).sort()
      expect(ids).toEqual(['u1', 'u2'])
      // Outside a transaction nothing is copied (the caller inserts instead).
      expect(await copyRows(db, 'users', columns, [['u4', '0xe']])).toBe(false)
    } finally {
      await database.close()
    }
  })

  it('copies more rows than one piece of COPY text holds, all or none of them', async () => {
    const database = await testDatabase(kind)
    try {
      const db = database.db
      const columns = ['id', 'address']
      const count = 2 * COPY_CHUNK_ROWS + 7
      const rows = Array.from({ length: count }, (_, n) => [`m${n}`, `0x${n.toString(16)}`])
      expect(await db.transaction((tx) => copyRows(tx, 'users', columns, rows))).toBe(true)
      const stored = rowsOf<{ id: string; address: string }>(
        await db.execute(sql`select id, address from users where id like 'm%'`),
      )
      expect(stored).toHaveLength(count)
      const byId = new Map(stored.map((row) => [row.id, row.address]))
      for (const [id, address] of rows) expect(byId.get(id!)).toBe(address)
      // A taken id in the last piece: the pieces before it are not written either.
      const again = Array.from({ length: count }, (_, n) => [`k${n}`, '0x0'])
      again[count - 1] = ['m0', '0x0']
      expect(await db.transaction((tx) => copyRows(tx, 'users', columns, again))).toBe(false)
      const taken = rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from users where id like 'k%'`),
      )
      expect(taken[0]!.n).toBe(0)
    } finally {
      await database.close()
    }
  })

  it('locks the owner named once instead of checking each row, and checks foreign keys again after', async () => {
    const database = await testDatabase(kind)
    try {
      const db = database.db
      await db.insert(users).values({ id: 'owner', address: '0x' + '2'.repeat(40) })
      const columns = ['class_name', 'id', 'owner_id', 'read_perm', 'write_perm', 'data']
      const copy = (id: string, owner: string) =>
        db.transaction(async (tx) => {
          const copied = await copyRows(
            tx,
            'objects',
            columns,
            [['Note', id, owner, [], [], '{}']],
            {
              referenced: { table: 'users', id: owner },
            },
          )
          // Foreign keys are checked again for whatever follows in the transaction.
          const [mode] = rowsOf<{ mode: string }>(
            await tx.execute(sql`select current_setting('session_replication_role') as mode`),
          )
          return { copied, mode: mode!.mode }
        })
      // The owner named is missing: nothing is copied.
      expect(await copy('n1', 'nobody')).toEqual({ copied: false, mode: 'origin' })
      expect(await copy('n2', 'owner')).toEqual({ copied: true, mode: 'origin' })
      const ids = rowsOf<{ id: string }>(
        await db.execute(sql`select id from objects where class_name = 'Note'`),
      )
      expect(ids.map((row) => row.id)).toEqual(['n2'])
    } finally {
      await database.close()
    }
  })
})
