import { and, asc, count, eq, inArray, sql } from 'drizzle-orm'
import { MAX_ROLE_USERS } from '@portico/sdk/wire'
import { checkedAddress } from '../auth/addresses.ts'
import { rowsOf, type Database } from '../db/client.ts'
import { objectRelations, userAddresses, users } from '../db/schema.ts'
import { badRequest } from '../errors.ts'
import { ROLE_CLASS } from './rules.ts'

// What roles read of their members: the rows of `object_relations` that `_Role` objects hold
// (written in the role's own transaction by the object store), and the users a request names.

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * The user ids that `entries` (user ids, or wallet addresses linked to a user) name, without
 * repeats; 400 naming the first entry that names no user.
 */
export async function userIdsOf(db: Database, entries: readonly string[]): Promise<string[]> {
  if (entries.length === 0) return []
  const addresses = [...new Set(entries.filter((e) => ADDRESS.test(e)).map(checkedAddress))]
  const ids = [...new Set(entries.filter((e) => !ADDRESS.test(e)))]
  const [byAddress, known] = await Promise.all([
    addresses.length
      ? db
          .select({ address: userAddresses.address, userId: userAddresses.userId })
          .from(userAddresses)
          .where(inArray(userAddresses.address, addresses))
      : [],
    ids.length ? db.select({ id: users.id }).from(users).where(inArray(users.id, ids)) : [],
  ])
  const ofAddress = new Map(byAddress.map((row) => [row.address, row.userId]))
  const knownIds = new Set(known.map((row) => row.id))
  const resolved = entries.map((entry) => {
    if (ADDRESS.test(entry)) {
      const id = ofAddress.get(checkedAddress(entry))
      if (id === undefined)
        throw badRequest(
          `No user has signed in with ${entry}: a wallet must sign in once before it can be added to a role.`,
          'invalid_value',
        )
      return id
    }
    if (!knownIds.has(entry))
      throw badRequest(`No user has the id "${entry.slice(0, 80)}".`, 'invalid_value')
    return entry
  })
  return [...new Set(resolved)]
}

export type Counts = Map<string, { users: number; roles: number }>

/** How many users and roles each of the roles `ids` holds directly. */
async function countsOf(db: Database, ids: string[]): Promise<Counts> {
  const counts: Counts = new Map(ids.map((id) => [id, { users: 0, roles: 0 }]))
  if (ids.length === 0) return counts
  const rows = await db
    .select({ owningId: objectRelations.owningId, field: objectRelations.field, n: count() })
    .from(objectRelations)
    .where(
      and(
        eq(objectRelations.className, ROLE_CLASS),
        inArray(objectRelations.field, ['users', 'roles']),
        inArray(objectRelations.owningId, ids),
      ),
    )
    .groupBy(objectRelations.owningId, objectRelations.field)
  for (const row of rows) counts.get(row.owningId)![row.field as 'users' | 'roles'] = row.n
  return counts
}

/** Ids held in one relation of a role, sorted (at most `MAX_ROLE_USERS`). */
async function membersOf(db: Database, roleId: string, field: 'users' | 'roles') {
  const rows = await db
    .select({ id: objectRelations.relatedId })
    .from(objectRelations)
    .where(
      and(
        eq(objectRelations.className, ROLE_CLASS),
        eq(objectRelations.field, field),
        eq(objectRelations.owningId, roleId),
      ),
    )
    .orderBy(asc(objectRelations.relatedId))
    .limit(MAX_ROLE_USERS)
  return rows.map((row) => row.id)
}

/** The roles that hold `roleId` in their `roles`, and the roles that hold those, to any depth. */
async function parentsOf(db: Database, roleId: string): Promise<string[]> {
  // UNION (not UNION ALL) drops rows already found, so a cycle of roles ends the recursion.
  const result = await db.execute(sql`
    with recursive parent(role_id) as (
      select owning_id from ${objectRelations}
        where class_name = ${ROLE_CLASS} and field = 'roles' and related_id = ${roleId}
      union
      select r.owning_id from ${objectRelations} r join parent p on r.related_id = p.role_id
        where r.class_name = ${ROLE_CLASS} and r.field = 'roles'
    )
    select role_id from parent where role_id <> ${roleId} limit ${MAX_ROLE_USERS}`)
  return rowsOf<{ role_id: string }>(result).map((row) => row.role_id)
}

/** The members of roles on one database, and the users a change of members names. */
export class RoleMembers {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  /** How many users and roles each of the roles `ids` holds directly. */
  counts(ids: string[]): Promise<Counts> {
    return countsOf(this.#db, ids)
  }

  /** Ids held in one relation of a role, sorted (at most `MAX_ROLE_USERS`). */
  of(roleId: string, field: 'users' | 'roles'): Promise<string[]> {
    return membersOf(this.#db, roleId, field)
  }

  /** The roles that hold `roleId`, directly or through others. */
  parents(roleId: string): Promise<string[]> {
    return parentsOf(this.#db, roleId)
  }

  /** The user ids that `entries` name (see `userIdsOf`). */
  userIds(entries: readonly string[]): Promise<string[]> {
    return userIdsOf(this.#db, entries)
  }
}
