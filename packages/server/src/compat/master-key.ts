import { PLACEHOLDER_USERS } from '@portico/sdk/wire'
import { createHash, timingSafeEqual } from 'node:crypto'
import proxyAddr from '@fastify/proxy-addr'
import type { Database } from '../db/client.ts'
import { users } from '../db/schema.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// Parse's master key: a call carrying it reads and writes every object whatever its ACL, as the
// console does. Off unless MASTER_KEY is set; accepted only from MASTER_KEY_IPS (loopback unless
// said otherwise) and compared in constant time. The key is never logged: it arrives in a header
// or the envelope's body, neither of which the server logs.

/** Objects a master-key call creates without a signed-in user belong to this user, who never signs in. */
export const MASTER_OWNER = {
  id: PLACEHOLDER_USERS.master.id,
  address: PLACEHOLDER_USERS.master.address,
}

const refused = (why: string) =>
  new ParseError(ParseCode.OPERATION_FORBIDDEN, `unauthorized: master key ${why}.`)

const digest = (value: string) => createHash('sha256').update(value).digest()

export interface MasterKeyCheck {
  /** Whether `sent` is the master key and `ip` may use it; throws 119 when it is sent but refused. */
  (sent: string | undefined, ip: string): boolean
}

/** The check for one server's settings. */
export function masterKeyCheck(settings: {
  masterKey: string | undefined
  masterKeyIps: readonly string[]
}): MasterKeyCheck {
  const allowed = proxyAddr.compile([...settings.masterKeyIps])
  // Equal lengths for timingSafeEqual, and no length leaked: both sides are hashed first.
  const expected = settings.masterKey === undefined ? undefined : digest(settings.masterKey)
  return (sent, ip) => {
    if (sent === undefined) return false
    if (expected === undefined) throw refused('is not set on this server: set MASTER_KEY to use it')
    if (!allowed(ip, 0))
      throw refused(
        `is not accepted from ${ip.slice(0, 45)}: add the address to MASTER_KEY_IPS, or run the call on the server`,
      )
    if (!timingSafeEqual(digest(sent), expected)) throw refused('is not valid')
    return true
  }
}

/** Makes the master key's user row once, before it owns anything. */
export async function ensureMasterOwner(db: Database): Promise<void> {
  await db.insert(users).values(MASTER_OWNER).onConflictDoNothing()
}

/** The master key's user row, made on the database it was given. */
export class MasterOwner {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  ensure(): Promise<void> {
    return ensureMasterOwner(this.#db)
  }
}
