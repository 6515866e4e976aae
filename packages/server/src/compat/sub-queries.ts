import type { Changer } from '../objects/access.ts'
import { MAX_IN, parseWhere } from '../objects/condition.ts'
import { pointerTo, queryValue } from '../objects/parse-shape.ts'
import type { WireObject } from '../objects/rows.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// Parse's sub-query operators, run as Parse Server runs them: the inner query first, as the
// caller (so its class is read under the caller's ACLs like any query), then its results put in
// the outer `where` as a plain list:
//   { post: { $inQuery: { className, where } } }             → { post: { $in: [pointers] } }
//   { post: { $notInQuery: … } }                              → { post: { $nin: [pointers] } }
//   { city: { $select: { query: { className, where }, key } } } → { city: { $in: [values of key] } }
//   { city: { $dontSelect: … } }                               → { city: { $nin: […] } }

/** Sub-queries one query may hold, at any depth. */
const MAX_SUB_QUERIES = 5
/** Sub-queries nest at most this deep (a sub-query's own `where` holding one is 2). */
const MAX_SUB_DEPTH = 3

const SUB_QUERY_OPS: Record<string, '$in' | '$nin'> = {
  $inQuery: '$in',
  $notInQuery: '$nin',
  $select: '$in',
  $dontSelect: '$nin',
}
const NESTED = new Set(['$or', '$and', '$nor'])

const invalid = (message: string) => new ParseError(ParseCode.INVALID_QUERY, message)

type Where = Record<string, unknown>

/** Runs an inner query: the class names are checked by the caller's own rule. */
export interface SubQueryContext {
  store: ObjectStore
  viewer: Changer | undefined
  /** The class name a sub-query names, checked as the mount checks class names. */
  className(name: unknown): string
  /** A sub-query's `where`, its own sub-queries resolved, as its class stores what it names. */
  storedWhere(className: string, where: Where | undefined): Promise<Where | undefined>
}

const isObject = (value: unknown): value is Where =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/**
 * `where` with every sub-query replaced by the list it selects; `where` itself is left as it
 * is. A `where` without sub-queries comes back unchanged.
 */
export async function resolveSubQueries(
  context: SubQueryContext,
  where: Where | undefined,
): Promise<Where | undefined> {
  if (where === undefined) return undefined
  return resolveLevel(context, where, 1, { count: 0 })
}

async function resolveLevel(
  context: SubQueryContext,
  where: Where,
  depth: number,
  counter: { count: number },
): Promise<Where> {
  const out: Where = {}
  for (const [name, constraint] of Object.entries(where)) {
    if (NESTED.has(name) && Array.isArray(constraint)) {
      out[name] = await Promise.all(
        constraint.map((part) =>
          isObject(part) ? resolveLevel(context, part, depth, counter) : part,
        ),
      )
      continue
    }
    if (!isObject(constraint) || !Object.keys(constraint).some((op) => op in SUB_QUERY_OPS)) {
      out[name] = constraint
      continue
    }
    const resolved: Where = {}
    for (const [op, value] of Object.entries(constraint)) {
      const listOp = Object.hasOwn(SUB_QUERY_OPS, op) ? SUB_QUERY_OPS[op] : undefined
      if (!listOp) {
        resolved[op] = value
        continue
      }
      if (listOp in constraint || listOp in resolved)
        throw invalid(`${op} on "${name.slice(0, 64)}" cannot go with ${listOp}: use $and.`)
      if (++counter.count > MAX_SUB_QUERIES)
        throw invalid(`A query holds at most ${MAX_SUB_QUERIES} sub-queries.`)
      if (depth >= MAX_SUB_DEPTH) throw invalid(`Sub-queries nest at most ${MAX_SUB_DEPTH} deep.`)
      resolved[listOp] =
        op === '$inQuery' || op === '$notInQuery'
          ? (await innerQuery(context, value, op, depth, counter)).map(pointerTo)
          : await selectedValues(context, value, op, depth, counter)
    }
    out[name] = resolved
  }
  return out
}

/** The objects a sub-query (`{ className, where }`) selects, as the caller reads them. */
async function innerQuery(
  context: SubQueryContext,
  query: unknown,
  op: string,
  depth: number,
  counter: { count: number },
  key?: string,
): Promise<WireObject[]> {
  if (!isObject(query) || typeof query.className !== 'string')
    throw invalid(`${op} takes a query: { "className": …, "where": { … } }.`)
  if (query.where !== undefined && !isObject(query.where))
    throw invalid(`The "where" of ${op} must be an object.`)
  const className = context.className(query.className)
  // The selected key is read as the caller reads it: a field hidden from them is refused.
  if (key) await context.store.assertQueryable(context.viewer, className, { keys: [key] })
  const where = await context.storedWhere(
    className,
    query.where && (await resolveLevel(context, query.where, depth + 1, counter)),
  )
  const found = await context.store.query(context.viewer, className, {
    where: where ? parseWhere(where) : undefined,
    limit: MAX_IN + 1,
    skip: 0,
  })
  if (found.results.length > MAX_IN)
    throw invalid(
      `The query of ${op} selects more than ${MAX_IN} objects: narrow its "where" (Portico puts what it selects in a list).`,
    )
  return found.results
}

/** The values of `key` in the objects `$select` / `$dontSelect`'s query selects. */
async function selectedValues(
  context: SubQueryContext,
  value: unknown,
  op: string,
  depth: number,
  counter: { count: number },
): Promise<unknown[]> {
  if (!isObject(value) || typeof value.key !== 'string')
    throw invalid(`${op} takes { "query": { "className": …, "where": { … } }, "key": "<field>" }.`)
  const key = value.key
  const objects = await innerQuery(context, value.query, op, depth, counter, key)
  const values = new Map<string, unknown>()
  for (const object of objects) {
    const selected = queryValue(object, key)
    if (selected !== undefined) values.set(JSON.stringify(selected), selected)
  }
  return [...values.values()]
}
