import { and, eq, ne, sql } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { objects, passwordLogins } from '../db/schema.ts'
import { ParseError } from './parse-error.ts'

// A username names one user, whoever they are: a password user's login name (kept with their
// login, unique there) and every user's `username` field (a wallet user's is their address until
// they change it) are one namespace, compared case-insensitively as log-ins compare them. A
// username shaped as a wallet address is that wallet's user's (their first sign-in takes it), so
// a password user cannot take it before them.

/** Parse's code and words for a username in use. */
export const usernameTaken = () => new ParseError(202, 'Account already exists for this username.')

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * Throws 202 when `username` is another user's than `userId` (undefined for a new user): another
 * password user's login, or another user's `username`. `forPassword`: the name is to sign in
 * with a password, which a wallet address never is.
 */
export async function assertUsernameFree(
  db: Database,
  username: unknown,
  userId: string | undefined,
  forPassword: boolean,
): Promise<void> {
  if (typeof username !== 'string') return
  if (forPassword && ADDRESS.test(username)) throw usernameTaken()
  const [login] = await db
    .select({ id: passwordLogins.userId })
    .from(passwordLogins)
    .where(
      and(
        sql`lower(${passwordLogins.username}) = lower(${username})`,
        userId ? ne(passwordLogins.userId, userId) : undefined,
      ),
    )
    .limit(1)
  if (login) throw usernameTaken()
  const [user] = await db
    .select({ id: objects.id })
    .from(objects)
    .where(
      and(
        eq(objects.className, '_User'),
        sql`lower(${objects.data} ->> 'username') = lower(${username})`,
        userId ? ne(objects.id, userId) : undefined,
      ),
    )
    .limit(1)
  if (user) throw usernameTaken()
}
