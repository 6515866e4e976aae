import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { PGlite } from '@electric-sql/pglite'
import { openDatabase } from './client.ts'
import { users } from './schema.ts'

describe('the embedded database client', () => {
  it('keeps times as text for drizzle, and honours parsers a query brings of its own', async () => {
    const client = new PGlite()
    const { db, close } = await openDatabase({ kind: 'pglite', client })
    try {
      const at = "timestamptz '2026-01-02 03:04:05.678+00'"
      const raw = await db.execute(sql.raw(`select ${at} as at`))
      expect((raw as unknown as { rows: { at: unknown }[] }).rows[0]!.at).toBe(
        '2026-01-02 03:04:05.678+00',
      )
      const inTransaction = await db.transaction((tx) => tx.execute(sql.raw(`select ${at} as at`)))
      expect((inTransaction as unknown as { rows: { at: unknown }[] }).rows[0]!.at).toBe(
        '2026-01-02 03:04:05.678+00',
      )
      const ownInTransaction = await client.transaction((tx) =>
        tx.query<{ at: unknown }>(`select ${at} as at`, [], {
          parsers: { 1184: (value: string) => `own ${value}` },
        }),
      )
      expect(ownInTransaction.rows[0]!.at).toBe('own 2026-01-02 03:04:05.678+00')
      // A caller with a parser that is not the identity still gets its own answer.
      const parsed = await client.query<{ at: unknown }>(`select ${at} as at`, [], {
        parsers: { 1184: (value: string) => `parsed ${value}` },
      })
      expect(parsed.rows[0]!.at).toBe('parsed 2026-01-02 03:04:05.678+00')
      // And drizzle's column types still map stored times to the same instants as dates.
      const [user] = await db
        .insert(users)
        .values({ id: 'u1', address: '0x0000000000000000000000000000000000000001' })
        .returning()
      const stored = await db.execute(sql`select first_sign_in_at::text as at from users`)
      const text = (stored as unknown as { rows: { at: string }[] }).rows[0]!.at
      expect(user!.firstSignInAt).toBeInstanceOf(Date)
      expect(user!.firstSignInAt.getTime()).toBe(Math.floor(new Date(text).getTime()))
    } finally {
      await close()
    }
  })
})
