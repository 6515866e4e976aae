import { badRequest } from '../errors.ts'

// The console's pages of objects follow the last object shown instead of skipping the ones
// before: the next page of a million-object class is read from the (class, created_at, id)
// index at the last row, where an OFFSET would read and drop every row before it. This works
// for orders by the envelope's columns, whose values are on every object and compare as the
// store sorts them; an order by a document field (values of mixed types, or missing) pages by
// offset.

type Key = 'createdAt' | 'updatedAt' | 'objectId'

const ENVELOPE = new Set<string>(['createdAt', 'updatedAt', 'objectId'])

/** Where the previous page ended: the envelope of its last object. */
export interface PageEnd {
  objectId: string
  createdAt: string
  updatedAt: string
}

/**
 * The keys an order sorts by, tie-breaks included, as the store adds them (a createdAt key,
 * else createdAt ascending, then the id in createdAt's direction); undefined when the order
 * names a document field (or nothing), so pages of it are skipped through.
 */
export function keysetOrder(
  order: string | undefined,
): { key: Key; descending: boolean }[] | undefined {
  const named = (order ?? '').split(',').filter(Boolean)
  if (named.length === 0 || named.some((key) => !ENVELOPE.has(key.replace(/^-/, ''))))
    return undefined
  const keys = named.map((key) => ({
    key: key.replace(/^-/, '') as Key,
    descending: key.startsWith('-'),
  }))
  const created = keys.find((k) => k.key === 'createdAt')
  if (!created) keys.push({ key: 'createdAt', descending: false })
  keys.push({ key: 'objectId', descending: created?.descending ?? false })
  // The id is unique: nothing after it orders anything.
  return keys.slice(0, keys.findIndex((k) => k.key === 'objectId') + 1)
}

/** The `after` parameter → the previous page's end; 400 when it is not one. */
export function parsePageEnd(text: string): PageEnd {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw badRequest('"after" is not valid JSON.', 'invalid_query')
  }
  const end = value as Partial<Record<string, unknown>>
  const isTime = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v))
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof end.objectId !== 'string' ||
    !/^[A-Za-z0-9_-]{1,64}$/.test(end.objectId) ||
    !isTime(end.createdAt) ||
    !isTime(end.updatedAt)
  ) {
    throw badRequest(
      '"after" names the last object of a page: {"objectId", "createdAt", "updatedAt"} as the page gave them.',
      'invalid_query',
    )
  }
  return { objectId: end.objectId, createdAt: end.createdAt, updatedAt: end.updatedAt } as PageEnd
}

/** The `next` of a page: where it ended, when it is full and its order pages by key. */
export function pageEnd(
  results: readonly { objectId: string; createdAt: string; updatedAt: string }[],
  limit: number,
  order: string | undefined,
): string | undefined {
  const last = results.at(-1)
  if (!last || results.length < limit || !keysetOrder(order)) return undefined
  return JSON.stringify({
    objectId: last.objectId,
    createdAt: last.createdAt,
    updatedAt: last.updatedAt,
  })
}

/**
 * `where` (as sent, or undefined) narrowed to the objects after `end` in `order`: the first
 * key's bound (which the index starts from), and the rows past `end` key by key.
 */
export function whereAfter(
  where: Record<string, unknown> | undefined,
  order: string | undefined,
  end: PageEnd,
): Record<string, unknown> {
  const keys = keysetOrder(order)
  if (!keys) {
    throw badRequest(
      '"after" pages an order by createdAt, updatedAt or objectId; other orders page with "skip".',
      'invalid_query',
    )
  }
  const value = (key: Key) =>
    key === 'objectId' ? end.objectId : { __type: 'Date', iso: end[key] }
  const past = keys.map((k, i) => ({
    ...Object.fromEntries(
      keys.slice(0, i).map((before) => [before.key, { $eq: value(before.key) }]),
    ),
    [k.key]: { [k.descending ? '$lt' : '$gt']: value(k.key) },
  }))
  const [first] = keys
  const bound = { [first!.key]: { [first!.descending ? '$lte' : '$gte']: value(first!.key) } }
  // The sender's own `$and` keeps its place (one that is not a list is refused as usual).
  const own = where?.$and
  const earlier = own === undefined ? [] : Array.isArray(own) ? (own as unknown[]) : [{ $and: own }]
  return { ...where, $and: [...earlier, bound, past.length === 1 ? past[0] : { $or: past }] }
}
