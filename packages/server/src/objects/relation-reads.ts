import { and, eq, inArray, sql } from 'drizzle-orm'
import { queryRows, type Database } from '../db/client.ts'
import { objectRelations, objects } from '../db/schema.ts'
import { SCHEMA_CLASS } from './class-permissions.ts'
import { isValidName } from './names.ts'

// What a query that names a relation field reads of the relations before it runs: which objects
// hold given members, and which class a relation's members are of. Relation members are rows of
// `object_relations` (relations.ts writes them).

/** The ids of the objects of `className` whose relation `field` holds one of `relatedIds`. */
export async function relationHolders(
  db: Database,
  className: string,
  field: string,
  relatedIds: readonly string[],
): Promise<string[]> {
  const holding = and(
    eq(objectRelations.className, className),
    eq(objectRelations.field, field),
    inArray(objectRelations.relatedId, [...relatedIds]),
  )
  const rows = await db
    .selectDistinct({ owningId: objectRelations.owningId })
    .from(objectRelations)
    .where(holding)
  return rows.map((row) => row.owningId)
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
