import { sql } from 'drizzle-orm'
import { queryRows, type Database } from '../db/client.ts'
import { objects } from '../db/schema.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// Parse Server holds a class to one GeoPoint field: an object written with two is refused, and
// so is a schema declaring a second one (with Parse's own messages, which its clients' tests
// read).

const isGeoPoint = (value: unknown) =>
  value !== null &&
  typeof value === 'object' &&
  (value as { __type?: unknown }).__type === 'GeoPoint'

/** Throws Parse's 111 when a write (its top-level fields, as sent) sets two GeoPoints. */
export function assertOneGeoPoint(params: Record<string, unknown>): void {
  let count = 0
  for (const value of Object.values(params))
    if (isGeoPoint(value) && ++count > 1)
      throw new ParseError(
        ParseCode.INCORRECT_TYPE,
        'there can only be one geopoint field in a class',
      )
}

/**
 * Throws Parse's 111 when a class would have two GeoPoint fields: `held` are those its objects
 * or schema have already, `declared` the schema's fields as they would be (name → `{ type }`).
 */
export function assertOneGeoPointField(
  held: readonly string[],
  declared: Record<string, unknown>,
): void {
  const fields = [...held]
  for (const [name, spec] of Object.entries(declared))
    if ((spec as { type?: unknown } | null)?.type === 'GeoPoint' && !fields.includes(name))
      fields.push(name)
  if (fields.length > 1)
    throw new ParseError(
      ParseCode.INCORRECT_TYPE,
      `currently, only one GeoPoint field may exist in an object. Adding ${fields[1]} when ${fields[0]} already exists.`,
    )
}

/** The fields of `className` whose objects hold a GeoPoint (read when a schema adds one). */
export async function geoPointFieldsHeld(db: Database, className: string): Promise<string[]> {
  const rows = await queryRows<{ field: string }>(
    db,
    sql`select e.key as field from ${objects} o, jsonb_each(o.data) e
      where o.class_name = ${className} and jsonb_typeof(e.value) = 'object'
        and e.value->>'__type' = 'GeoPoint'
      group by e.key order by min(o.created_at) limit 10`,
  )
  return rows.map((row) => row.field)
}
