import { and, eq, inArray, sql } from 'drizzle-orm'
import { queryRows, type Database } from '../db/client.ts'
import { objectRelations, objects } from '../db/schema.ts'
import { isValidName } from '../objects/names.ts'
import { SCHEMA_CLASS } from '../objects/class-permissions.ts'

// Queries that name a relation field as Parse Server reads them: a constraint on a relation
// field (`equalTo('child', pointer)`, `containedIn('child', pointers)`) selects the objects whose
// relation holds those members; and `redirectClassNameForKey`, which the clients send for
// `relation.query()` of an object they have not fetched, asks for the relation's member class.

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

interface Pointer {
  __type: 'Pointer'
  className: string
  objectId: string
}

const isPointer = (value: unknown): value is Pointer =>
  isObject(value) &&
  value.__type === 'Pointer' &&
  typeof value.className === 'string' &&
  typeof value.objectId === 'string'

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

/**
 * `where` with each top-level constraint on a relation field of `className` read as a
 * constraint on `objectId`: the ids of the objects whose relation holds the pointers. A field
 * none of whose objects holds one of them is left as sent, which a pointer field compares and a
 * relation field (holding a marker, never a pointer) does not meet.
 */
export async function relationConstraints(
  db: Database,
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
    const rows = await db
      .selectDistinct({ owningId: objectRelations.owningId })
      .from(objectRelations)
      .where(
        and(
          eq(objectRelations.className, className),
          eq(objectRelations.field, key),
          inArray(objectRelations.relatedId, members.ids),
        ),
      )
    if (rows.length === 0) continue
    out ??= { ...where }
    delete out[key]
    const ids = rows.map((row) => row.owningId)
    added.push({ objectId: members.holding ? { $in: ids } : { $nin: ids } })
  }
  if (!out) return where
  const before = Array.isArray(out.$and) ? (out.$and as unknown[]) : []
  return { ...out, $and: [...before, ...added] }
}

/**
 * The class of the members of relation `key` of `className`: as its schema declares it, else as
 * its objects' relation markers name it; undefined when `key` is no relation field.
 */
export async function relationTargetClass(
  db: Database,
  className: string,
  key: string,
): Promise<string | undefined> {
  if (!isValidName(key)) return undefined
  const [declared] = await queryRows<{ target: string | null }>(
    db,
    sql`select ${objects.data} -> 'fields' -> ${key}::text ->> 'targetClass' as target
        from ${objects} where ${objects.className} = ${SCHEMA_CLASS} and ${objects.id} = ${className}
          and ${objects.data} -> 'fields' -> ${key}::text ->> 'type' = 'Relation'`,
  )
  if (declared?.target) return declared.target
  // The objects whose relation holds members name its class in their marker.
  const [held] = await queryRows<{ target: string | null }>(
    db,
    sql`select o.data -> ${key}::text ->> 'className' as target
        from ${objectRelations} r join ${objects} o
          on o.class_name = r.class_name and o.id = r.owning_id
        where r.class_name = ${className} and r.field = ${key}
          and o.data -> ${key}::text ->> '__type' = 'Relation'
        limit 1`,
  )
  return held?.target ?? undefined
}
