import { and, eq, inArray, sql } from 'drizzle-orm'
import { rowsOf, type Database } from '../db/client.ts'
import { objectRelations } from '../db/schema.ts'
import { badRequest } from '../errors.ts'
import type { Document } from './wire.ts'

// Relation fields, as Parse has them: a field holds no list but a marker naming the class of
// its members (`{ "__type": "Relation", "className": "_User" }`); the members are rows of
// `object_relations`, added and removed by operations and read with `$relatedTo`. Who may change
// a relation is who may write the object that holds it (the store locks that object first);
// who may read a member is the member's own ACL.

/** Members added to and removed from one relation field of an object. */
export interface RelationChange {
  field: string
  /** The class of its members. */
  targetClass: string
  add: string[]
  remove: string[]
}

/** Most members one write adds or removes. */
export const MAX_RELATION_CHANGE = 1000

export const relationMarker = (className: string) => ({ __type: 'Relation', className })

/** Whether `value` is a Relation marker. */
export function isRelation(value: unknown): value is { __type: 'Relation'; className: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { __type?: unknown }).__type === 'Relation' &&
    typeof (value as { className?: unknown }).className === 'string'
  )
}

/**
 * `data` with a marker on each changed relation field; refused when the field holds something
 * else, or a relation to another class.
 */
export function markRelations(data: Document, changes: readonly RelationChange[]): Document {
  const out = { ...data }
  for (const change of changes) {
    const current = out[change.field]
    if (current !== undefined && current !== null) {
      if (!isRelation(current))
        throw badRequest(`"${change.field}" is not a relation field.`, 'invalid_value')
      if (current.className !== change.targetClass)
        throw badRequest(
          `"${change.field}" is a relation to ${current.className}, not ${change.targetClass.slice(0, 64)}.`,
          'invalid_value',
        )
    }
    out[change.field] = relationMarker(change.targetClass)
  }
  return out
}

/** Writes the changes of one object's relations (in the caller's transaction). */
export async function writeRelations(
  tx: Database,
  className: string,
  owningId: string,
  changes: readonly RelationChange[],
): Promise<void> {
  for (const change of changes) {
    if (change.add.length)
      await tx
        .insert(objectRelations)
        .values(
          change.add.map((relatedId) => ({ className, field: change.field, owningId, relatedId })),
        )
        .onConflictDoNothing()
    if (change.remove.length)
      await tx
        .delete(objectRelations)
        .where(
          and(
            eq(objectRelations.className, className),
            eq(objectRelations.field, change.field),
            eq(objectRelations.owningId, owningId),
            inArray(objectRelations.relatedId, change.remove),
          ),
        )
  }
}

/**
 * Forgets the relations the deleted objects held, and a deleted role's place among the roles
 * that held it (it grants nothing once gone, but would be counted among their members).
 */
export async function dropRelations(tx: Database, className: string, ids: string[]) {
  if (ids.length === 0) return
  await tx
    .delete(objectRelations)
    .where(and(eq(objectRelations.className, className), inArray(objectRelations.owningId, ids)))
  if (className === '_Role')
    await tx
      .delete(objectRelations)
      .where(
        and(
          eq(objectRelations.className, '_Role'),
          eq(objectRelations.field, 'roles'),
          inArray(objectRelations.relatedId, ids),
        ),
      )
}

/** Relation members to write as they are (an import's `_Join` files); returns how many were new. */
export async function insertRelations(
  tx: Database,
  rows: readonly { className: string; field: string; owningId: string; relatedId: string }[],
): Promise<number> {
  if (rows.length === 0) return 0
  const input = JSON.stringify(rows)
  const result = await tx.execute(sql`
    insert into ${objectRelations} (class_name, field, owning_id, related_id)
    select r."className", r.field, r."owningId", r."relatedId"
    from jsonb_to_recordset(${input}::jsonb)
      as r("className" text, field text, "owningId" text, "relatedId" text)
    on conflict do nothing
    returning 1`)
  return rowsOf(result).length
}
