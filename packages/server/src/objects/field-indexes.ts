import { createHash } from 'node:crypto'
import { and, eq, isNull, sql } from 'drizzle-orm'
import { rowsOf, type Database } from '../db/client.ts'
import type { Cluster, Leadership } from '../db/cluster/cluster.ts'
import { objectFieldIndexes } from '../db/schema.ts'
import { fieldTerms, type Condition } from './condition.ts'
import { integerIndexExpression } from './integer-fields.ts'
import { walksCreationIndex } from './query.ts'

// Indexes on document fields, made for the fields each class is actually queried on.
//
// Why expression indexes, one per (class, field), rather than one GIN index over every document:
// a GIN index (jsonb_path_ops, equality rewritten as containment) serves equality only, not
// ranges or ordering, costs every write on every field, and would tempt the planner into a
// bitmap of half a class over a short walk of the creation index. A btree on
// `(data -> 'field', created_at, id)`, partial to its class:
//   - serves equality, `$in`, ranges and `order=field`, and equality followed by creation order
//     (the page a site asks for most: "this kind, newest first") without a sort;
//   - costs writes only in the class it belongs to.
// PostgreSQL takes no statistics from a partial index, so it plans document fields on its fixed
// guesses: an equality keeps 0.5% of the class, a range a third. Those choose well here: the
// field index for equality and `$in` and for `order=field`, a walk of the creation index for a
// range on a newest-first page. That walk is long when the range is narrow, so such pages look
// among the newest objects first (`recentFirst`, see objects/pages.ts). The query translator
// keeps its type checks out of those guesses (see `typeGuard` in query.ts).
//
// So that no caller's queries can hurt another's: an index is built only for a field queried
// `threshold` times, in a class holding at least `minRows` objects, at most `perClass` per class
// and `total` in all; builds run one at a time in the background, never in a request. On
// PostgreSQL they are `CONCURRENTLY` (writes go on during the build); the embedded database has one connection, so its build holds other
// statements for its duration (about a second per 300,000 objects) once per field.
// A build is led by one process at a time (`Cluster.lead`): another that wants the same index
// waits for it, then finds it built.
//
// Composite indexes, for a page filtered on some fields and sorted on another (`where: {tag:
// 't17'}, order: '-score'`): a field index on `tag` finds the matches, but then every match is
// read and sorted for a page of 20, so the page slows as the class grows (200 matches per tag at
// 100,000 objects: a tenth of its rate at 1,000). The index that reads only the page is
// `(data -> 'tag', data -> 'score' desc, created_at, id)`: the equality fields first, in name
// order, then the order field in the order's direction, then the creation time and id
// that break ties (translateOrder sorts them ascending). Once built, such a page is read by
// walking it with sorting made dear (`walkIndexInOrder`): the planner, guessing a few matches,
// would rather read them all and sort them. It is noted and built like a field
// index, under the same bounds (a composite counts as one index of its class), and recorded in
// the same table with its shape as its `field`: `tag,kind|-score`.

/** An index built for a class's queries, as the console lists it. */
export interface FieldIndexUse {
  /** The field, or a composite's shape (`kind,tag|-score`). */
  field: string
  indexName: string
  createdAt: string
  /** Times the database read it. */
  scans: number
  bytes: number
}

export interface FieldIndexOptions {
  threshold: number
  minRows: number
  perClass: number
  total: number
}

export const defaultFieldIndexOptions: FieldIndexOptions = {
  threshold: 5,
  minRows: 2000,
  perClass: 8,
  total: 200,
}

/** Constraints a btree on the field's value serves. */
const INDEXABLE = new Set(['$eq', '$in', '$gt', '$gte', '$lt', '$lte'])
const RANGES = new Set(['$gt', '$gte', '$lt', '$lte'])
const META_FIELDS = new Set(['objectId', 'owner', 'createdAt', 'updatedAt'])
/**
 * Marks an index on a field's integer (integer-fields.ts) where indexes are listed, apart from
 * one on its JSON value: a class whose field became an integer field gets the one it needs.
 */
const INTEGER_INDEX = '::numeric'
const noFields: ReadonlySet<string> = new Set()
/** At most this many equality fields lead a composite index. */
const COMPOSITE_MAX_EQUALITIES = 3
const indexKey = (field: string, integers: ReadonlySet<string>) =>
  integers.has(field) ? `${field}${INTEGER_INDEX}` : field
/** Only these reach the index's SQL text (class and field names are validated stricter still). */
const SAFE_NAME = /^_?[A-Za-z][A-Za-z0-9_]{0,63}$/

/** Document fields a `where` compares with what a btree serves, at any `$or`/`$and` depth. */
export function indexableFields(condition: Condition | undefined): string[] {
  const fields = new Set<string>()
  for (const term of fieldTerms(condition)) {
    if (term.kind === 'field' && INDEXABLE.has(term.test.op)) fields.add(term.field)
  }
  return [...fields]
}

/** Document fields an `order` sorts by first (only the first key can use an index). */
export function orderField(order: string | undefined): string | undefined {
  const first = order?.split(',').find(Boolean)?.replace(/^-/, '')
  return first === undefined || META_FIELDS.has(first) ? undefined : first
}

/**
 * The composite index a query asks for (see above), as the `field` it is recorded under
 * (`kind,tag|-score`), or undefined when it asks for none: it needs an equality at the top of
 * `where` on a document field (not null, not an integer field: their equality is rewritten into
 * several forms) and a first `order` key on another document field.
 */
export function compositeShape(
  where: Condition | undefined,
  order: string | undefined,
  integerFields: ReadonlySet<string> = noFields,
): string | undefined {
  const sorted = orderField(order)
  if (sorted === undefined) return undefined
  const equalities = new Set<string>()
  for (const term of where?.terms ?? []) {
    if (term.kind !== 'field' || term.field === sorted || integerFields.has(term.field)) continue
    // `$in` is left out: its translation (`coalesce(field in (...), false)`) reads no index,
    // and several values could not be walked in the order field's order anyway.
    if (term.test.op === '$eq' && term.test.value !== null) equalities.add(term.field)
  }
  if (equalities.size === 0 || equalities.size > COMPOSITE_MAX_EQUALITIES) return undefined
  const descending = order!.split(',').find(Boolean)!.startsWith('-')
  const key = indexKey(sorted, integerFields)
  return `${[...equalities].sort().join(',')}|${descending ? '-' : ''}${key}`
}

/** A composite shape's index columns; an order on an integer field sorts its number. */
function compositeColumns(shape: string): string[] {
  const [equalities = '', order = ''] = shape.split('|')
  const sorted = order.replace(/^-/, '').replace(INTEGER_INDEX, '')
  const orderExpression = order.endsWith(INTEGER_INDEX)
    ? integerIndexExpression(sorted)
    : `(data -> '${sorted}')`
  return [
    ...equalities.split(',').map((field) => `(data -> '${field}')`),
    `${orderExpression}${order.startsWith('-') ? ' desc' : ''}`,
  ]
}

export const fieldIndexName = (className: string, field: string) =>
  `objects_field_${createHash('sha256').update(`${className}\0${field}`).digest('hex').slice(0, 20)}`

export class FieldIndexes {
  /** Fields with a built index, per class. */
  readonly #built = new Map<string, Set<string>>()
  readonly #seen = new Map<string, number>()
  readonly #queued = new Set<string>()
  /** `class\0field` of the indexes removed in the console: never built again. */
  readonly #removed = new Set<string>()
  #builds: Promise<void> = Promise.resolve()
  /** The build this process leads or waits to lead. */
  #building: Leadership | undefined
  #closed = false

  constructor(
    private readonly db: Database,
    /** Where one process at a time is chosen to build an index. */
    private readonly cluster: Pick<Cluster, 'kind' | 'lead'>,
    private readonly onError: (error: unknown, index: { className: string; field: string }) => void,
    private readonly options: FieldIndexOptions = defaultFieldIndexOptions,
  ) {}

  /** Reads the indexes built so far (by any process), and those removed in the console. */
  async load(): Promise<void> {
    const rows = await this.db.select().from(objectFieldIndexes)
    for (const row of rows) {
      if (row.removedAt === null) this.#markBuilt(row.className, row.field)
      else this.#removed.add(`${row.className}\0${row.field}`)
    }
  }

  /**
   * The indexes built for `className`, oldest first, each with how many times the database has
   * read it (since its statistics were last reset: on the embedded database, since it started)
   * and its size in bytes.
   */
  async list(className: string): Promise<FieldIndexUse[]> {
    // The embedded database's statistics reach the views only when flushed; PostgreSQL's other
    // sessions flush theirs within a second or so.
    if (this.cluster.kind !== 'postgres')
      await this.db.execute(sql`select pg_stat_force_next_flush()`)
    const rows = rowsOf<{
      field: string
      index_name: string
      created_at: string | Date
      scans: string | number | null
      bytes: string | number | null
    }>(
      await this.db.execute(sql`
        select f.field, f.index_name, f.created_at, s.idx_scan as scans,
          pg_relation_size(to_regclass(f.index_name)) as bytes
        from ${objectFieldIndexes} as f
        left join pg_stat_user_indexes as s on s.indexrelname = f.index_name
        where f.class_name = ${className} and f.removed_at is null
        order by f.created_at, f.field`),
    )
    return rows.map((row) => ({
      field: row.field,
      indexName: row.index_name,
      createdAt: new Date(row.created_at).toISOString(),
      scans: Number(row.scans ?? 0),
      bytes: Number(row.bytes ?? 0),
    }))
  }

  /**
   * Drops the index built for `field` of `className` (as `list` names it) and keeps it from
   * being built again, in any process that starts after; false when there is none. Another
   * running process still plans with it until it restarts: its pages read the same objects,
   * only without that index.
   */
  async remove(className: string, field: string): Promise<boolean> {
    const [row] = await this.db
      .update(objectFieldIndexes)
      .set({ removedAt: new Date() })
      .where(
        and(
          eq(objectFieldIndexes.className, className),
          eq(objectFieldIndexes.field, field),
          isNull(objectFieldIndexes.removedAt),
        ),
      )
      .returning({ indexName: objectFieldIndexes.indexName })
    if (!row) return false
    this.#removed.add(`${className}\0${field}`)
    this.#built.get(className)?.delete(field)
    // The name was made here (`fieldIndexName`), never taken from the request.
    const drop = `drop index ${this.cluster.kind === 'postgres' ? 'concurrently ' : ''}if exists "${row.indexName}"`
    await this.db.execute(sql.raw(drop))
    return true
  }

  has(className: string, field: string): boolean {
    return this.#built.get(className)?.has(field) ?? false
  }

  /**
   * Notes a query's fields (a build starts once one is asked for often enough), and says
   * whether its page is best read by walking the creation index (`walksCreationIndex`): only
   * while none of its filtered fields has an index. With no index, the planner's guess that an
   * equality keeps 0.5% of a class makes it sort the whole class rather than walk; with one, the
   * same guess sends it to the field index, which is right.
   */
  planQuery(
    className: string,
    where: Condition | undefined,
    order: string | undefined,
    /** Fields compared as the integers they hold: their index is on that number. */
    integerFields: ReadonlySet<string> = noFields,
  ): {
    walkCreationIndex: boolean
    recentFirst: boolean
    walkIndexInOrder: boolean
    countByIndex: boolean
  } {
    const filtered = indexableFields(where)
    const sorted = orderField(order)
    const key = (field: string) => indexKey(field, integerFields)
    for (const field of sorted === undefined ? filtered : [...filtered, sorted]) {
      this.#note(className, field, integerFields.has(field))
    }
    const composite = compositeShape(where, order, integerFields)
    if (composite !== undefined) this.#noteComposite(className, composite)
    const indexed = filtered.some((field) => this.has(className, key(field)))
    const walks = walksCreationIndex(where, order)
    const served = this.#served(className, where, key)
    return {
      walkCreationIndex: !indexed && walks,
      // A range the planner cannot size, with no equality to lead it to a field index.
      recentFirst: walks && served.range && !served.lookup,
      // Its composite index holds the page in order: read just the page, never sort.
      walkIndexInOrder: composite !== undefined && this.has(className, composite),
      countByIndex: this.#countsByIndex(className, where, key),
    }
  }

  /**
   * Whether a count of `where` is best read from an index (see `countByIndex` in pages.ts): every
   * top-level term is an owner or id comparison (the class's own indexes) or an equality or range
   * on a field with its index. An `$or`, a `$relatedTo` or an unindexed field is left to the
   * planner.
   */
  #countsByIndex(
    className: string,
    where: Condition | undefined,
    key: (field: string) => string,
  ): boolean {
    return (where?.terms ?? []).every((term) => {
      if (term.kind === 'id') return term.test.op === '$eq' || term.test.op === '$in'
      if (term.kind !== 'field' || !this.has(className, key(term.field))) return false
      return term.test.op === '$eq' || RANGES.has(term.test.op)
    })
  }

  /** Whether the top level of `where` has a range, or an equality or `$in`, on an indexed field. */
  #served(className: string, where: Condition | undefined, key: (field: string) => string) {
    const served = { range: false, lookup: false }
    for (const term of where?.terms ?? []) {
      if (term.kind !== 'field' || !this.has(className, key(term.field))) continue
      if (term.test.op === '$eq' || term.test.op === '$in') served.lookup = true
      if (RANGES.has(term.test.op)) served.range = true
    }
    return served
  }

  /** Resolves once every build started so far has finished. */
  idle(): Promise<void> {
    return this.#builds
  }

  async close(): Promise<void> {
    this.#closed = true
    await this.#building?.stop()
    await this.#builds
  }

  #markBuilt(className: string, field: string) {
    let fields = this.#built.get(className)
    if (!fields) this.#built.set(className, (fields = new Set()))
    fields.add(field)
  }

  #note(className: string, field: string, integer: boolean) {
    const indexed = integer ? `${field}${INTEGER_INDEX}` : field
    if (!SAFE_NAME.test(className) || !SAFE_NAME.test(field)) return
    const expression = integer ? integerIndexExpression(field) : `(data -> '${field}')`
    this.#ask(className, indexed, [expression])
  }

  #noteComposite(className: string, shape: string) {
    const names = shape
      .split(/[|,]/)
      .map((name) => name.replace(/^-/, '').replace(INTEGER_INDEX, ''))
    if (!SAFE_NAME.test(className) || !names.every((name) => SAFE_NAME.test(name))) return
    this.#ask(className, shape, compositeColumns(shape))
  }

  /** Counts one more query that asks for the index `indexed` on `columns`; queues its build. */
  #ask(className: string, indexed: string, columns: string[]) {
    const key = `${className}\0${indexed}`
    if (this.has(className, indexed) || this.#removed.has(key)) return
    const seen = (this.#seen.get(key) ?? 0) + 1
    this.#seen.set(key, seen)
    // Asked again at every multiple of the threshold, so a class that grows gets its index.
    if (seen % this.options.threshold !== 0 || this.#queued.has(key)) return
    const builtHere = this.#built.get(className)?.size ?? 0
    const builtAll = [...this.#built.values()].reduce((sum, set) => sum + set.size, 0)
    if (builtHere >= this.options.perClass || builtAll >= this.options.total) return
    this.#queued.add(key)
    this.#builds = this.#builds
      .then(() => (this.#closed ? undefined : this.#build(className, indexed, columns)))
      .catch((error: unknown) => this.onError(error, { className, field: indexed }))
      .finally(() => this.#queued.delete(key))
  }

  async #build(className: string, indexed: string, columns: string[]): Promise<void> {
    const large = await this.db.execute(
      sql`select count(*)::int as n from (select 1 from objects where class_name = ${className} limit ${this.options.minRows}) as enough`,
    )
    const [{ n = 0 } = {}] = rowsOf<{ n: number }>(large)
    if (n < this.options.minRows) return
    const name = fieldIndexName(className, indexed)
    const definition =
      `if not exists "${name}" on objects (${columns.join(', ')}, created_at, id) ` +
      `where class_name = '${className}'`
    let built = false
    this.#building = this.cluster.lead(`field-index:${name}`, async () => {
      if (this.#closed) return
      if (this.cluster.kind === 'postgres') await buildConcurrently(this.db, name, definition)
      else await this.db.execute(sql.raw(`create index ${definition}`))
      built = true
    })
    try {
      await this.#building.done
    } finally {
      this.#building = undefined
    }
    if (!built) return
    // Fresh class sizes for the planner (it guesses the field's own selectivity either way).
    // Not a vacuum: it empties the access rule's GIN index's pending list, which makes the
    // planner read a narrow range's page through that index (a bitmap of every public object)
    // instead of the field's (see pages.ts, `readRecentFirst`).
    await this.db.execute(sql`analyze objects`)
    await this.db
      .insert(objectFieldIndexes)
      .values({ className, field: indexed, indexName: name })
      .onConflictDoNothing()
    this.#markBuilt(className, indexed)
  }
}

/**
 * `create index concurrently` (never in a transaction, so each statement on its own). A build
 * that fails leaves an invalid index behind, which is dropped.
 */
async function buildConcurrently(db: Database, name: string, definition: string) {
  // A build cut off earlier (a crash) left an invalid index of that name: start again.
  const invalid = await db.execute(
    sql`select 1 from pg_index where indexrelid = to_regclass(${name}) and not indisvalid`,
  )
  if (rowsOf(invalid).length) {
    await db.execute(sql.raw(`drop index concurrently if exists "${name}"`))
  }
  try {
    await db.execute(sql.raw(`create index concurrently ${definition}`))
  } catch (error) {
    // The build's own error is the one to report; the drop is tried once more next time.
    await db.execute(sql.raw(`drop index concurrently if exists "${name}"`)).catch(() => {})
    throw error
  }
}
