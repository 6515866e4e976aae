import type { Database } from '../db/client.ts'
import { isValidName } from '../objects/names.ts'
import { isPointer } from '../objects/parse-shape.ts'
import { relationHolders } from '../objects/relation-reads.ts'

// Queries that name a relation field as Parse Server reads them: a constraint on a relation
// field (`equalTo('child', pointer)`, `containedIn('child', pointers)`) selects the objects whose
// relation holds those members (objects/relation-reads.ts reads which they are).

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** Most members one constraint may name. */
const MAX_MEMBERS = 1000

/**
 * The pointers a top-level constraint on `key` names, and whether it keeps the objects holding
 * them (`$eq`, `$in`, `$all`) or those not holding them (`$ne`, `$nin`); undefined for anything else.
 */
function membersOf(value: unknown): { holding: boolean; ids: string[] } | undefined {
  if (isPointer(value)) return { holding: true, ids: [value.objectId] }
  if (!isObject(value) || Object.keys(value).length !== 1) return undefined
  const [op, arg] = Object.entries(value)[0]!
  const list = op === '$eq' || op === '$ne' ? [arg] : arg
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_MEMBERS) return undefined
  if (!list.every(isPointer)) return undefined
  const ids = list.map((pointer) => pointer.objectId)
  if (op === '$eq' || op === '$in') return { holding: true, ids }
  if (op === '$ne' || op === '$nin') return { holding: false, ids }
  return undefined
}

/** Which objects' relations hold given members, as a query naming a relation field reads them. */
export class RelationHolders {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  /** The ids of the objects of `className` whose relation `field` holds one of `relatedIds`. */
  of(className: string, field: string, relatedIds: readonly string[]): Promise<string[]> {
    return relationHolders(this.#db, className, field, relatedIds)
  }
}

/**
 * `where` with each top-level constraint on a relation field of `className` read as a
 * constraint on `objectId`: the ids of the objects whose relation holds the pointers. A field
 * none of whose objects holds one of them is left as sent, which a pointer field compares and a
 * relation field (holding a marker, never a pointer) does not meet.
 */
export async function relationConstraints(
  holders: RelationHolders,
  className: string,
  where: Record<string, unknown> | undefined,
): Promise<Record<string, unknown> | undefined> {
  if (!where) return where
  let out: Record<string, unknown> | undefined
  const added: Record<string, unknown>[] = []
  for (const [key, value] of Object.entries(where)) {
    if (key.startsWith('$') || !isValidName(key)) continue
    const members = membersOf(value)
    if (!members) continue
    const ids = await holders.of(className, key, members.ids)
    if (ids.length === 0) continue
    out ??= { ...where }
    delete out[key]
    added.push({ objectId: members.holding ? { $in: ids } : { $nin: ids } })
  }
  if (!out) return where
  const before = Array.isArray(out.$and) ? (out.$and as unknown[]) : []
  return { ...out, $and: [...before, ...added] }
}
