import { eq, inArray, sql } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { users } from '../db/schema.ts'
import type { Acl } from '../objects/acl.ts'
import { userIdsOf } from '../roles/members.ts'

// The console shows and takes users by wallet address, which is how a team knows its users;
// ACLs and roles keep user ids.

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** The user ids an ACL names (not `*`, not roles). */
export const aclUserIds = (acl: Acl): string[] =>
  Object.keys(acl).filter((key) => key !== '*' && !key.startsWith('role:'))

/** Each user's (primary) wallet address, by user id; users that do not exist are left out. */
export async function addressesOf(db: Database, ids: readonly string[]) {
  const unique = [...new Set(ids)]
  const rows = unique.length
    ? await db
        .select({ id: users.id, address: users.address })
        .from(users)
        .where(inArray(users.id, unique))
    : []
  return new Map(rows.map((row) => [row.id, row.address]))
}

/**
 * `acl` with each wallet address among its keys replaced by the id of the user it signs in as
 * (their rights merged when both are given); 400 for an address that has never signed in.
 */
export async function aclByUserId(db: Database, acl: Acl): Promise<Acl> {
  const addresses = Object.keys(acl).filter((key) => ADDRESS.test(key))
  if (addresses.length === 0) return acl
  const ids = await Promise.all(addresses.map(async (key) => (await userIdsOf(db, [key]))[0]!))
  const byAddress = new Map(addresses.map((key, i) => [key, ids[i]!]))
  const out: Acl = {}
  for (const [key, rights] of Object.entries(acl)) {
    const id = byAddress.get(key) ?? key
    out[id] = { ...out[id], ...rights }
  }
  return out
}

/** The console's address and user id translations on one database. */
export class AclUsers {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  /** Each user's (primary) wallet address, by user id (see `addressesOf`). */
  addressesOf(ids: readonly string[]) {
    return addressesOf(this.#db, ids)
  }

  /** The id of the user `owner` names: by their wallet address (any case) or by their id. */
  async userIdOf(owner: string): Promise<string | undefined> {
    const byAddress = ADDRESS.test(owner)
    const [found] = await this.#db
      .select({ id: users.id })
      .from(users)
      .where(
        byAddress ? sql`lower(${users.address}) = ${owner.toLowerCase()}` : eq(users.id, owner),
      )
    return found?.id
  }

  /** `acl` keyed by user ids (see `aclByUserId`). */
  aclByUserId(acl: Acl): Promise<Acl> {
    return aclByUserId(this.#db, acl)
  }
}
