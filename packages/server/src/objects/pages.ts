import { and, count, sql, type SQL } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { objects } from '../db/schema.ts'
import { badRequest, type HttpError } from '../errors.ts'
import {
  packedRows,
  readableBy,
  unpack,
  type Changer,
  type PackedRow,
  type WireObject,
} from './store.ts'

// Pages of objects: the query language, translated (query.ts), read in one statement whose
// answer is bounded in bytes before any document is read.

export interface QueryInput {
  className: string
  viewerId: Changer | undefined
  where: SQL | undefined
  orderBy: SQL[]
  limit: number
  skip: number
  count: boolean
  /** Most bytes of documents the answer may carry; past it the query is refused, unread. */
  maxBytes: number
  /** Read the page by walking the creation index in order (see `walksCreationIndex`). */
  walkCreationIndex?: boolean
}

/** Allowance per object for the fields around its document in the answer. */
const envelopeBytes = 200

export async function queryObjects(
  db: Database,
  input: QueryInput,
): Promise<{ results: WireObject[]; count?: number }> {
  const condition = and(readableBy(input.className, input.viewerId), input.where)
  const results =
    input.limit === 0
      ? []
      : input.walkCreationIndex
        ? await db.transaction(async (tx) => {
            // Sorting made dear for this transaction only, so the planner takes the index walk;
            // and no JIT, which that made-up cost would otherwise trigger (150 ms of compiling).
            await tx.execute(sql`set local enable_sort = off`)
            await tx.execute(sql`set local jit = off`)
            return readPage(tx as unknown as Database, condition, input)
          })
        : await readPage(db, condition, input)
  if (!input.count) return { results }
  const [total] = await db.select({ n: count() }).from(objects).where(condition)
  return { results, count: Number(total?.n ?? 0) }
}

/**
 * One page, in one statement that first adds up the page's stored sizes: past the budget the
 * documents are not read at all (they stay NULL) and the query is refused, so an answer never
 * has to be held in memory to learn that it is too big.
 */
async function readPage(db: Database, condition: SQL | undefined, input: QueryInput) {
  // Written as one SQL text rather than through the query builder's aliased subquery (building
  // that took as much CPU per page as the embedded database's work on it), and answered as ONE
  // JSON value: the embedded database's driver decodes each field of each row on its own, which
  // cost more than the statement itself; one value is one decode and one JSON.parse.
  const order = sql.join(input.orderBy, sql`, `)
  const total = sql`sum(size + ${envelopeBytes}) over ()`
  const result = await db.execute(sql`
    select max(bytes) as bytes, count(*) as n,
      json_agg(json_build_array(id, owner_id, public_read, created_at, updated_at, data)
        order by position) as rows
    from (
      select id, owner_id, public_read, created_at, updated_at, position, ${total} as bytes,
        case when ${total} <= ${input.maxBytes} then data end as data
      from (
        select id, owner_id, public_read, created_at, updated_at, size, data,
          row_number() over (order by ${order}) as position
        from ${objects} where ${condition ?? sql`true`}
        order by ${order} limit ${input.limit} offset ${input.skip}
      ) as page
    ) as sized`)
  const [answer] = (result as unknown as { rows: { bytes: string | null; n: string }[] }).rows
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
