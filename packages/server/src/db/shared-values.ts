import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Database } from './client.ts'
import { sharedValues } from './schema.ts'

/**
 * A random value stored once in the database under `name`: the first process to ask makes it,
 * every other process (and every restart) reads the same one. Racing first askers agree, because
 * only one insert wins and everyone reads the winner.
 */
export async function sharedRandomValue(db: Database, name: string): Promise<string> {
  await db
    .insert(sharedValues)
    .values({ name, value: randomBytes(32).toString('hex') })
    .onConflictDoNothing()
  const [row] = await db.select().from(sharedValues).where(eq(sharedValues.name, name))
  if (!row) throw new Error(`shared value ${name} could not be read back`)
  return row.value
}
