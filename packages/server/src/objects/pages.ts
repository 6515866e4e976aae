import { and, sql, type SQL } from 'drizzle-orm'
import {
  rowsOf,
  compileStatement,
  runCompiled,
  type CompiledStatement,
  type Database,
} from '../db/client.ts'
import { objects } from '../db/schema.ts'
import { badRequest, type HttpError } from '../errors.ts'
import { ANY_OWNER, readableBy, type Viewer } from './access.ts'
import { packedRows, unpack, type PackedRow, type WireObject } from './rows.ts'

// Pages of objects: the query language, translated (query.ts), read in one statement whose
// answer is bounded in bytes before any document is read.

export interface QueryInput {
  className: string
  /** Whose access the page is read with (access.ts). */
  viewer: Viewer
  where: SQL | undefined
  orderBy: SQL[]
  limit: number
  skip: number
  count: boolean
  /**
   * Count at most this many matches plus one: a count past it reads no further and answers
   * `countLimit + 1` (the console shows "10,000+"). Without it the count is exact.
   */
  countLimit?: number | undefined
  /**
   * Read the count through an index rather than a bitmap of the access rule's GIN index (see
   * `countMatches`); the planner still picks which.
   */
  countByIndex?: boolean
  /** Most bytes of documents the answer may carry; past it the query is refused, unread. */
  maxBytes: number
  /** Read the page by walking the creation index in order (see `walksCreationIndex`). */
  walkCreationIndex?: boolean
  /**
   * Read the page by walking an index whose order is the page's (a composite index, see
   * `FieldIndexes.planQuery`): with no statistics on document fields the planner guesses a few
   * matches and would rather read them all and sort them.
   */
  walkIndexInOrder?: boolean
  /**
   * Look for the page among the class's newest objects first, else read its matches through
   * the field index (see `FieldIndexes.planQuery`): for a range on an indexed field in
   * creation order, whose width the planner cannot know.
   */
  recentFirst?: boolean
  /**
   * The text `where` and `orderBy` were translated from, when the caller has it (they must be
   * functions of it alone): a page asked again with the same text, class, viewer and bounds
   * runs the statement compiled the first time.
   */
  source?: { where: string | undefined; order: string | undefined }
}

/** Allowance per object for the fields around its document in the answer. */
const envelopeBytes = 200

/**
 * Compiled page statements by what they were made from (the object store keeps one): building a
 * page's statement and compiling it to text took about 0.1 ms, an eighth of a whole page query
 * on the embedded database; sites ask the same pages over and over. The most recently used
 * `max` are kept.
 */
export class CompiledPages {
  readonly #pages = new Map<string, CompiledStatement>()

  constructor(private readonly max = 500) {}

  /** The statement kept for `key`, else the one `compile` makes (then kept). */
  get(key: string, compile: () => CompiledStatement): CompiledStatement {
    const known = this.#pages.get(key)
    if (known) {
      // Most recently used last: the first entry is the one to drop.
      this.#pages.delete(key)
      this.#pages.set(key, known)
      return known
    }
    const compiled = compile()
    if (this.#pages.size >= this.max) this.#pages.delete(this.#pages.keys().next().value!)
    this.#pages.set(key, compiled)
    return compiled
  }
}

/**
 * How many of a class's newest objects a `recentFirst` page looks through before it asks the
 * field index instead: a range that keeps 2% of a class fills a page of 20 within them.
 */
export const recentWindow = 1000

/**
 * One page of objects, and their count when asked. `compiled` keeps page statements between
 * calls (the store's); without it each page is compiled anew.
 */
export async function queryObjects(
  db: Database,
  input: QueryInput,
  compiled?: CompiledPages,
): Promise<{ results: WireObject[]; count?: number }> {
  const condition = () => and(readableBy(input.className, input.viewer), input.where)
  const results =
    input.limit === 0
      ? []
      : input.walkCreationIndex || input.walkIndexInOrder
        ? // Sorting made dear, so the planner takes the index walk; no JIT, which that made-up
          // cost would otherwise trigger (150 ms of compiling).
          await readPlanned(db, input, condition, { enable_sort: 'off', jit: 'off' })
        : input.recentFirst && input.skip + input.limit <= recentWindow
          ? await readRecentFirst(db, input, condition, compiled)
          : readPage(await runCompiled(db, compiledPage(db, input, condition, compiled)), input)
  if (!input.count) return { results }
  return { results, count: await countMatches(db, input, condition()) }
}

/**
 * How many objects the viewer may read among the query's matches. Exact, as Parse's `count` is,
 * unless `countLimit` bounds it. Where every term is served by an index (`countByIndex`), bitmap
 * scans are made unavailable: the planner would otherwise AND in the access rule's GIN index on
 * `read_perm`, whose `*` (in every viewer's list) matches every public object of every class, and
 * then read each match's row (3× the time of walking the field index, on PostgreSQL, for 17k
 * matches in a million). Walking the index instead checks `read_perm` from the index itself on
 * the class's creation and owner indexes (they include it): a count of a class, or of an owner's
 * own objects, reads the index alone (an index-only scan, once the table's visibility map is
 * current: vacuumed).
 */
async function countMatches(db: Database, input: QueryInput, where: SQL | undefined) {
  const statement = countStatement(where, input.countLimit)
  const read = async (tx: Pick<Database, 'execute'>) => {
    const [total] = rowsOf<{ n: number }>(await tx.execute(statement))
    return Number(total?.n ?? 0)
  }
  if (!input.countByIndex) return read(db)
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('enable_bitmapscan', 'off', true), set_config('jit', 'off', true)`,
    )
    return read(tx)
  })
}

/** The count of the rows `where` selects, or of at most `limit` + 1 of them. */
export function countStatement(where: SQL | undefined, limit?: number): SQL {
  const matches = sql`select 1 from ${objects} where ${where ?? sql`true`}`
  return limit === undefined
    ? sql`select count(*)::int as n from (${matches}) as counted`
    : sql`select count(*)::int as n from (${matches} limit ${limit + 1}) as counted`
}

/**
 * A range on an indexed field, in creation order: the planner guesses it keeps a third of the
 * class and walks the creation index, which finds a page at once when the range is wide and
 * walks most of the class when it is narrow (55 ms at a million objects for a 0.1% range). So
 * the page is first read from the class's newest objects alone: when that fills it, it is the
 * page (those objects come first in its order). Otherwise the range's matches are read through
 * the field index and sorted, the walk made unavailable for that statement.
 */
async function readRecentFirst(
  db: Database,
  input: QueryInput,
  condition: () => SQL | undefined,
  compiled: CompiledPages | undefined,
) {
  const recent = readPage(
    await runCompiled(db, compiledPage(db, input, condition, compiled, recentWindow)),
    input,
  )
  if (recent.length === input.limit) return recent
  // No parallel workers either: the planner still guesses a third of the class and would start
  // them (10 ms on PostgreSQL) for what is a few hundred rows.
  return readPlanned(db, input, condition, {
    enable_indexscan: 'off',
    enable_seqscan: 'off',
    jit: 'off',
    max_parallel_workers_per_gather: '0',
  })
}

/**
 * The page read in a transaction whose planner settings are changed for it alone, all set in
 * one statement (`set_config(…, true)` is `set local`).
 */
function readPlanned(
  db: Database,
  input: QueryInput,
  condition: () => SQL | undefined,
  settings: Record<string, string>,
) {
  return db.transaction(async (tx) => {
    const set = Object.entries(settings).map(
      ([name, value]) => sql`set_config(${name}, ${value}, true)`,
    )
    await tx.execute(sql`select ${sql.join(set, sql`, `)}`)
    return readPage(await tx.execute(pageStatement(condition(), input)), input)
  })
}

function compiledPage(
  db: Database,
  input: QueryInput,
  condition: () => SQL | undefined,
  compiled: CompiledPages | undefined,
  window?: number,
): CompiledStatement {
  const compile = () => compileStatement(db, pageStatement(condition(), input, window))
  // The key tells every viewer apart: a user by their list (roles included), nobody as null,
  // the master key as `true` (neither a list nor null).
  const viewer = input.viewer
  if (!compiled || !input.source) {
    return compile()
  }
  const key = JSON.stringify([
    input.className,
    viewer === ANY_OWNER ? true : (viewer ?? null),
    input.source.where ?? null,
    input.source.order ?? null,
    input.limit,
    input.skip,
    input.maxBytes,
    window ?? null,
  ])
  return compiled.get(key, compile)
}

/**
 * One page, in one statement that first adds up the page's stored sizes: past the budget the
 * documents are not read at all (they stay NULL) and the query is refused, so an answer never
 * has to be held in memory to learn that it is too big. With a `window`, only the class's
 * first `window` objects in the page's own order are read.
 */
function pageStatement(condition: SQL | undefined, input: QueryInput, window?: number): SQL {
  // Written as one SQL text rather than through the query builder's aliased subquery (building
  // that took as much CPU per page as the embedded database's work on it), and answered as ONE
  // JSON value: the embedded database's driver decodes each field of each row on its own, which
  // cost more than the statement itself; one value is one decode and one JSON.parse.
  const order = sql.join(input.orderBy, sql`, `)
  const total = sql`sum(size + ${envelopeBytes}) over ()`
  // The window keeps the table's name, so the condition's and the order's columns name it.
  const source =
    window === undefined
      ? sql`${objects}`
      : sql`(select * from ${objects} where ${objects.className} = ${input.className}
          order by ${order} limit ${window}) as ${objects}`
  return sql`
    select max(bytes) as bytes, count(*) as n,
      json_agg(json_build_array(id, owner_id, read_perm, write_perm, created_at, updated_at, data)
        order by position) as rows
    from (
      select id, owner_id, read_perm, write_perm, created_at, updated_at, position,
        ${total} as bytes, case when ${total} <= ${input.maxBytes} then data end as data
      from (
        select id, owner_id, read_perm, write_perm, created_at, updated_at, size, data,
          row_number() over (order by ${order}) as position
        from ${source} where ${condition ?? sql`true`}
        order by ${order} limit ${input.limit} offset ${input.skip}
      ) as page
    ) as sized`
}

/** The page's objects from its statement's answer; refused when over the byte budget. */
function readPage(result: unknown, input: QueryInput) {
  const [answer] = rowsOf<{ bytes: string | null; n: string }>(result)
  const bytes = Number(answer?.bytes ?? 0)
  if (bytes > input.maxBytes) throw answerTooLarge(bytes, input.maxBytes, Number(answer?.n ?? 0))
  return packedRows<PackedRow>(result).map((row) => unpack(input.className, row))
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

export function answerTooLarge(bytes: number, maxBytes: number, objectCount?: number): HttpError {
  const what = objectCount === undefined ? 'This answer' : `These ${objectCount} objects`
  return badRequest(
    `${what} would take ${megabytes(bytes)}, over the ${megabytes(maxBytes)} this answer may carry: ask for fewer at a time (a smaller "limit") and page with "skip".`,
    'answer_too_large',
  )
}
