import { and, sql, type SQL } from 'drizzle-orm'
import { rowsOf, textArray, type Database } from '../db/client.ts'
import { objects } from '../db/schema.ts'
import { readableBy } from './access.ts'
import { permsOf } from './acl.ts'
import { arrayCondition } from './array-fields.ts'
import type { ClassPermissionsCache } from './class-permissions.ts'
import type { ClassRules } from './class-rules.ts'
import type { Condition } from './condition.ts'
import type { AccessDecisions } from './decisions.ts'
import { integerCondition } from './integer-fields.ts'
import type { ObjectFilter } from './object-store.ts'
import { translateWhere } from './query.ts'
import type { WireObject } from './rows.ts'

// Live matching: whether a changed object is among what live subscriptions select, decided by
// the database with the very conditions a query uses, so a subscription matches exactly what
// a query would find.

const noFields: ReadonlySet<string> = new Set()

export class LiveMatching {
  constructor(
    private readonly db: Database,
    private readonly access: AccessDecisions,
    private readonly rules: ClassRules,
    private readonly permissions: ClassPermissionsCache | undefined,
  ) {}

  /**
   * `where` on `className` as SQL, for a live subscription's filter (see `matches`): the same
   * translation as a query's.
   */
  condition(className: string, where: Condition | undefined): SQL | undefined {
    const integers = integerCondition(where, this.rules.integerFields(className))
    return translateWhere(
      arrayCondition(integers, this.permissions?.arrayFieldsNow(className) ?? noFields),
    )
  }

  /**
   * Whether each filter's viewer may read `object` and its condition holds for it: the object
   * is put in a one-row stand-in for the table and the conditions that queries use (the query
   * translation, the access rule, the pointer permissions) are evaluated on it, `$regex`
   * included.
   */
  async matches(object: WireObject, filters: readonly ObjectFilter[]): Promise<boolean[]> {
    const perms = permsOf(object.acl)
    const viewers = await Promise.all(filters.map((s) => this.access.viewer(s.viewerId)))
    // A subscriber the class's permissions refuse a find matches nothing.
    const allowed = await Promise.all(
      filters.map((s, i) => this.access.allowedCondition(s.className, 'find', viewers[i])),
    )
    const columns = filters.map((s, i) => {
      const condition = allowed[i] === false ? sql`false` : allowed[i]
      return sql`coalesce(${and(readableBy(s.className, viewers[i]), s.condition, condition)}, false) as ${sql.identifier(`m${i}`)}`
    })
    const result = await this.db.execute(sql`
      with ${objects} (class_name, id, owner_id, read_perm, write_perm, data, created_at,
        updated_at) as (
        values (${object.className}::text, ${object.objectId}::text, ${object.owner}::text,
          ${textArray(perms.readPerm)}, ${textArray(perms.writePerm)},
          ${JSON.stringify(object.data)}::jsonb,
          ${object.createdAt}::timestamptz, ${object.updatedAt}::timestamptz))
      select ${sql.join(columns, sql`, `)} from ${objects}`)
    const [row] = rowsOf<Record<string, boolean>>(result)
    return filters.map((_s, i) => row?.[`m${i}`] === true)
  }
}
