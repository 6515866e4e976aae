import { and, asc, count, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm'
import { batchConcurrency, queryRows, rowsOf, type Database } from '../db/client.ts'
import { createCoalescer } from '../db/coalesce.ts'
import { objects } from '../db/schema.ts'
import { answerBudget } from '../http/answer-budget.ts'
import { ANY_OWNER, byId, readableBy, visibleTo, type Changer, type Viewer } from './access.ts'
import { aggregateStatement, distinctStatement } from './aggregate.ts'
import { arrayCondition } from './array-fields.ts'
import { pointerCondition, SCHEMA_CLASS, type ClassPermissionsCache } from './class-permissions.ts'
import type { ClassRules } from './class-rules.ts'
import type { Condition } from './condition.ts'
import type { AccessDecisions } from './decisions.ts'
import type { FieldIndexes } from './field-indexes.ts'
import { integerCondition } from './integer-fields.ts'
import type { ObjectQuery, ObjectScan } from './object-store.ts'
import { CompiledPages, queryObjects } from './pages.ts'
import { translateOrder, translateWhere } from './query.ts'
import { packedRows, toWire, unpack, type PackedRow, type WireObject } from './rows.ts'

// The store's reads: one object (fetches that arrive together share one statement), many by
// key, pages of a query, scans for an export, and the master key's aggregates. Each statement
// carries the access rule and the class's pointer permissions in its WHERE clause; what the
// caller may not see of an object is removed from it as it leaves (decisions.ts).

interface FetchKey {
  className: string
  objectId: string
  /** The viewer's list (access.ts); undefined for a visitor. */
  viewer: readonly string[] | undefined
}

export interface FetchingOptions {
  db: Database
  access: AccessDecisions
  fieldIndexes: FieldIndexes
  answerMaxBytes: number
  rules: ClassRules
  permissions: ClassPermissionsCache | undefined
}

const SCAN_PAGE = 500
const noFields: ReadonlySet<string> = new Set()

export class Fetching {
  readonly #db: Database
  readonly #access: AccessDecisions
  readonly #options: FetchingOptions
  readonly #fetch: (key: FetchKey) => Promise<WireObject | null>
  readonly #compiledPages = new CompiledPages()

  constructor(options: FetchingOptions) {
    const { db } = options
    this.#db = db
    this.#access = options.access
    this.#options = options
    // Fetches that arrive together share one statement (as session lookups do): on the embedded
    // database a statement's fixed cost was most of a fetch.
    this.#fetch = createCoalescer(
      (keys: FetchKey[]) => fetchObjects(db, keys),
      200,
      batchConcurrency(db),
    )
  }

  /** One object, if `changer` may read it (no find triggers: the facade runs those). */
  async get(className: string, objectId: string, changer: Changer | undefined) {
    if (changer === ANY_OWNER) return this.readAsServer({ className, objectId })
    const viewer = await this.#access.viewer(changer)
    const constraint = await this.#access.allowed(className, 'get', viewer)
    // A class with pointer permissions is read on its own, its constraint in the statement.
    const found = constraint
      ? await this.#readOne(
          and(
            readableBy(className, viewer),
            eq(objects.id, objectId),
            pointerCondition(constraint),
          )!,
        )
      : await this.#fetch({ className, objectId, viewer: viewer as readonly string[] | undefined })
    return found && this.#access.visible(found, viewer)
  }

  /** The one object `where` selects, whatever the access rule (the caller's `where` holds it). */
  async #readOne(where: SQL): Promise<WireObject | null> {
    const [row] = await this.#db.select().from(objects).where(where).limit(1)
    return row ? toWire(row) : null
  }

  /** The object a change may touch, as it is now (see `ChangeDecision.writable`). */
  current(writable: SQL): Promise<WireObject | null> {
    return this.#readOne(writable)
  }

  /** The objects among `keys` (any classes) that `viewerId` may read, by `className/objectId`. */
  async readable(
    keys: { className: string; objectId: string }[],
    viewerId: Changer | undefined,
  ): Promise<Map<string, WireObject>> {
    const found = new Map<string, WireObject>()
    if (keys.length === 0) return found
    const viewer = await this.#access.viewer(viewerId)
    // A class whose permissions refuse the viewer a get is left out (its pointers stay bare).
    const allowed = new Map<string, SQL | undefined | false>()
    for (const className of new Set(keys.map((k) => k.className)))
      allowed.set(className, await this.#access.allowedCondition(className, 'get', viewer))
    keys = keys.filter((k) => allowed.get(k.className) !== false)
    if (keys.length === 0) return found
    const rows = await this.#db
      .select()
      .from(objects)
      .where(
        or(
          ...keys.map((k) =>
            and(
              readableBy(k.className, viewer),
              eq(objects.id, k.objectId),
              allowed.get(k.className) || undefined,
            ),
          ),
        ),
      )
    for (const row of rows)
      found.set(`${row.className}/${row.id}`, await this.#access.visible(toWire(row), viewer))
    return found
  }

  /** An object whatever its access rule, for the server's own use (never answered as such). */
  readAsServer(keys: { className: string; objectId: string }): Promise<WireObject | null> {
    return this.#readOne(byId(keys.className, keys.objectId))
  }

  /** The fields `className`'s schema declares, remembered with its permissions. */
  async declaredFields(className: string): Promise<Record<string, unknown>> {
    if (this.#options.permissions) return this.#options.permissions.declaredFields(className)
    const row = await this.readAsServer({ className: SCHEMA_CLASS, objectId: className })
    const fields = row?.data.fields
    return fields !== null && typeof fields === 'object' && !Array.isArray(fields)
      ? (fields as Record<string, unknown>)
      : {}
  }

  /** A page of a query (no find triggers: the facade runs those). */
  async query(
    changer: Changer | undefined,
    className: string,
    query: ObjectQuery,
  ): Promise<{ results: WireObject[]; count?: number }> {
    const { order } = query
    const access = this.#access
    const viewer = await access.viewer(changer)
    await access.assertQueryable(className, viewer, query)
    // As Parse names them: a count alone is `count`, a query for one id alone is `get`.
    const countOnly = query.count === true && query.limit === 0
    const constraint = countOnly
      ? undefined
      : await access.allowed(className, isGet(query.where) ? 'get' : 'find', viewer)
    const counted = query.count ? await access.allowed(className, 'count', viewer) : undefined
    const pointers = constraint ?? counted
    const integers = this.#options.rules.integerFields(className)
    const arrays = (await this.#options.permissions?.arrayFields(className)) ?? noFields
    const where = arrayCondition(integerCondition(query.where, integers), arrays)
    const source = query.whereText ?? (query.where ? JSON.stringify(query.where) : undefined)
    const found = await queryObjects(
      this.#db,
      {
        className,
        viewer,
        where: pointers
          ? and(translateWhere(where), pointerCondition(pointers))
          : translateWhere(where),
        orderBy: translateOrder(order, where, integers),
        ...this.#options.fieldIndexes.planQuery(className, where, order, integers),
        limit: query.limit,
        skip: query.skip,
        count: query.count ?? false,
        countLimit: query.countLimit,
        maxBytes: answerBudget(this.#options.answerMaxBytes),
        source: {
          // The pointer constraint is part of the statement: it is part of its key.
          where: pointers ? `${source ?? ''}\u0000${pointers.fields.join(',')}` : source,
          order,
        },
      },
      this.#compiledPages,
    )
    if (!this.#options.permissions || viewer === ANY_OWNER) return found
    return {
      ...found,
      results: await Promise.all(found.results.map((object) => access.visible(object, viewer))),
    }
  }

  /**
   * The objects of `className` that `changer` may read and `translated` (a `where` as SQL,
   * checked before anything is read) selects, for an export.
   */
  scan(changer: Changer, className: string, translated: SQL | undefined): ObjectScan {
    const db = this.#db
    const access = this.#access
    const resolved: Promise<{ viewer: Viewer; condition: SQL | undefined }> = access
      .viewer(changer)
      .then(async (viewer) => {
        const constraint = await access.allowed(className, 'find', viewer)
        return {
          viewer,
          condition: constraint ? and(translated, pointerCondition(constraint)) : translated,
        }
      })
    return {
      async fieldNames() {
        const { viewer, condition } = await resolved
        const keys = await db.execute(
          sql`select distinct jsonb_object_keys(${objects.data}) as key from ${objects}
              where ${and(readableBy(className, viewer), condition)} order by 1`,
        )
        return rowsOf<{ key: string }>(keys).map((row) => row.key)
      },
      async *pages() {
        const { viewer, condition } = await resolved
        let after = ''
        for (;;) {
          const rows = await db
            .select()
            .from(objects)
            .where(and(readableBy(className, viewer), gt(objects.id, after), condition))
            .orderBy(asc(objects.id))
            .limit(SCAN_PAGE)
          if (rows.length === 0) return
          yield await Promise.all(rows.map((row) => access.visible(toWire(row), viewer)))
          after = rows.at(-1)!.id
        }
      },
    }
  }

  /** An aggregate pipeline on every object of `className`: the master key's, no access rule. */
  async aggregate(className: string, pipeline: unknown): Promise<unknown[]> {
    const rows = await queryRows<{ doc: string }>(this.#db, aggregateStatement(className, pipeline))
    return rows.map((row) => JSON.parse(row.doc) as unknown)
  }

  /**
   * The distinct values of `field` among the objects of `className` `where` selects (master key),
   * `where` translated as a query's.
   */
  async distinct(
    className: string,
    field: string,
    where: Condition | undefined,
  ): Promise<unknown[]> {
    const arrays = (await this.#options.permissions?.arrayFields(className)) ?? noFields
    const integers = integerCondition(where, this.#options.rules.integerFields(className))
    const rows = await queryRows<{ doc: string }>(
      this.#db,
      distinctStatement(className, field, translateWhere(arrayCondition(integers, arrays))),
    )
    return rows.map((row) => JSON.parse(row.doc) as unknown)
  }

  /** How many objects each class holds, by class name. */
  countByClass(): Promise<{ className: string; count: number }[]> {
    return this.#db
      .select({ className: objects.className, count: count() })
      .from(objects)
      .groupBy(objects.className)
      .orderBy(objects.className)
  }

  /** The owner of each object of `className` among `ids` that exists, by id. */
  async owners(className: string, ids: string[]): Promise<Map<string, string>> {
    const rows = await this.#db
      .select({ id: objects.id, ownerId: objects.ownerId })
      .from(objects)
      .where(and(eq(objects.className, className), inArray(objects.id, ids)))
    return new Map(rows.map((row) => [row.id, row.ownerId]))
  }
}

/** Whether a `where` asks for one id alone (what Parse calls a `get`). */
const isGet = (where: Condition | undefined) =>
  where?.terms.length === 1 &&
  where.terms[0]!.kind === 'id' &&
  where.terms[0]!.field === 'objectId' &&
  where.terms[0]!.test.op === '$eq'

async function fetchObjects(db: Database, keys: FetchKey[]): Promise<(WireObject | null)[]> {
  // Each fetch is matched with its own viewer, by its position in the batch.
  const input = JSON.stringify(
    keys.map((key, n) => ({ n, c: key.className, i: key.objectId, p: key.viewer ?? ['*'] })),
  )
  const result = await db.execute(sql`
    select json_agg(json_build_array(k.n, ${objects.id}, ${objects.ownerId}, ${objects.readPerm},
      ${objects.writePerm}, ${objects.createdAt}, ${objects.updatedAt}, ${objects.data})) as rows
    from jsonb_to_recordset(${input}::jsonb) as k(n int, c text, i text, p text[])
    join ${objects} on ${objects.className} = k.c and ${objects.id} = k.i
      and ${visibleTo(sql`k.p`)}`)
  const found: (WireObject | null)[] = keys.map(() => null)
  for (const [n, ...row] of packedRows<[number, ...PackedRow]>(result))
    found[n] = unpack(keys[n]!.className, row)
  return found
}
