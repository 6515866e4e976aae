import { answerCode, BackendError, BatchError } from '../errors/backend.ts'
import type { BackendClient } from './client.ts'
import { decode, encode } from './encode.ts'
import type { QueryAnswer, WireObject } from '../wire/types.ts'

// Objects: JSON documents in named classes. Each has an ACL (who reads it, who writes it: "*",
// user ids, "role:<name>"); saved without one it is the creator's, private unless `publicRead`.
// Every function takes the client first.

export type ObjectData = Record<string, unknown>

/** An object's ACL: `*` (everyone), user ids and `role:<name>`, each with read and/or write. */
export type Acl = Record<string, { read?: boolean; write?: boolean }>

/** An object as the app handles it; `objectId` and the dates are set once it is saved. */
export interface PorticoObject<T extends ObjectData = ObjectData> {
  className: string
  objectId?: string | undefined
  /** Id of the user who created it. */
  owner?: string | undefined
  /**
   * Who reads and writes it, as Parse has it: `{ "*": { read: true }, [userId]: { read: true,
   * write: true }, "role:Editors": { write: true } }`. Only those who may write it change it.
   */
  acl?: Acl | undefined
  /** Readable by everyone when true (the ACL's "*" read; the rest of the ACL is kept). */
  publicRead?: boolean | undefined
  createdAt?: Date | undefined
  updatedAt?: Date | undefined
  /** Fields; Dates, `PorticoFile`s and `Pointer`s are encoded on the way out. */
  data: T
}

/** An object the server has stored. */
export type SavedObject<T extends ObjectData = ObjectData> = PorticoObject<T> & {
  objectId: string
  owner: string
  acl: Acl
  publicRead: boolean
  createdAt: Date
  updatedAt: Date
}

/** Server answer → object, with its fields decoded. */
export function fromWire<T extends ObjectData>(wire: WireObject): SavedObject<T> {
  return {
    className: wire.className,
    objectId: wire.objectId,
    owner: wire.owner,
    acl: wire.acl as Acl,
    publicRead: wire.publicRead,
    createdAt: new Date(wire.createdAt),
    updatedAt: new Date(wire.updatedAt),
    data: decode(wire.data) as T,
  }
}

const classPath = (className: string) => `/api/classes/${encodeURIComponent(className)}`
const objectPath = (className: string, objectId: string) =>
  `${classPath(className)}/${encodeURIComponent(objectId)}`

/** The request that saves `object`: create without an `objectId`, change (merge fields) with one. */
function saveRequest(object: PorticoObject) {
  const body = {
    data: encode(object.data),
    ...(object.acl === undefined ? {} : { acl: object.acl }),
    ...(object.publicRead === undefined ? {} : { publicRead: object.publicRead }),
  }
  return object.objectId
    ? { method: 'PUT' as const, path: objectPath(object.className, object.objectId), body }
    : { method: 'POST' as const, path: classPath(object.className), body }
}

export type SaveObjectReturnType<T extends ObjectData> = SavedObject<T>
export type SaveObjectErrorType = BackendError

/**
 * Creates the object (no `objectId`) or merges its fields into the stored one.
 * @example const note = await saveObject(client, { className: 'Note', data: { text: 'hi' } })
 */
export async function saveObject<T extends ObjectData>(
  client: BackendClient,
  object: PorticoObject<T>,
): Promise<SaveObjectReturnType<T>> {
  const { method, path, body } = saveRequest(object)
  return fromWire<T>(await client.request<WireObject>(method, path, { body }))
}

export interface ObjectRef {
  className: string
  objectId: string
}

/** Reads one object the caller may see (own or public); 404 `BackendError` otherwise. */
export async function fetchObject<T extends ObjectData = ObjectData>(
  client: BackendClient,
  { className, objectId }: ObjectRef,
): Promise<SavedObject<T>> {
  return fromWire<T>(await client.request<WireObject>('GET', objectPath(className, objectId)))
}

export interface QueryObjectsParameters {
  className: string
  /** Field constraints: a value, or `{ $ne, $gt, $gte, $lt, $lte, $in, $nin, $exists }`. */
  where?: Record<string, unknown> | undefined
  /** Field names, `-name` for descending. */
  order?: string | string[] | undefined
  /** At most 1000 (server default 100). */
  limit?: number | undefined
  skip?: number | undefined
  /** Also return how many objects match, regardless of limit and skip. */
  count?: boolean | undefined
}

export interface QueryObjectsReturnType<T extends ObjectData> {
  results: SavedObject<T>[]
  count?: number
}

/**
 * Queries the objects of a class that the caller may read.
 * @example await queryObjects(client, { className: 'Note', where: { score: { $gt: 3 } }, order: '-score' })
 */
export async function queryObjects<T extends ObjectData = ObjectData>(
  client: BackendClient,
  parameters: QueryObjectsParameters,
): Promise<QueryObjectsReturnType<T>> {
  const { className, where, order, limit, skip, count } = parameters
  const answer = await client.request<QueryAnswer>('GET', classPath(className), {
    query: {
      where: where ? JSON.stringify(encode(where)) : undefined,
      order: Array.isArray(order) ? order.join(',') : order,
      limit,
      skip,
      count: count ? 1 : undefined,
    },
  })
  return {
    results: answer.results.map((wire) => fromWire<T>(wire)),
    ...(answer.count === undefined ? {} : { count: answer.count }),
  }
}

/** Deletes an object the caller owns. */
export async function destroyObject(client: BackendClient, { className, objectId }: ObjectRef) {
  await client.request('DELETE', objectPath(className, objectId))
}

type SubRequest = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown }

/** Runs sub-requests through `POST /api/batch` in chunks of `client.batchSize`, results aligned. */
async function runBatches<T>(
  client: BackendClient,
  requests: SubRequest[],
  toResult: (body: unknown) => T,
): Promise<T[]> {
  const results: (T | BackendError)[] = []
  for (let start = 0; start < requests.length; start += client.batchSize) {
    const chunk = requests.slice(start, start + client.batchSize)
    let answer: { results: { status: number; body: unknown }[] }
    try {
      answer = await client.request('POST', '/api/batch', { body: { requests: chunk } })
    } catch (error) {
      // The whole batch failed after its retries: its objects share that error, and the batches
      // after it are not sent. What the earlier batches stored is still reported.
      const failure = error instanceof BackendError ? error : undefined
      for (const [offset, sub] of requests.slice(start).entries()) {
        results.push(
          offset < chunk.length && failure
            ? failure
            : new BackendError({
                code: offset < chunk.length ? 'batch_failed' : 'not_sent',
                message:
                  offset < chunk.length
                    ? 'The batch holding this object failed'
                    : 'Not sent: an earlier batch failed; save it again',
                method: sub.method,
                path: sub.path,
                attempts: offset < chunk.length ? client.attempts : 0,
                cause: error,
              }),
        )
      }
      break
    }
    chunk.forEach((sub, index) => {
      const result = answer.results[index]
      if (result && result.status < 300) {
        results.push(toResult(result.body))
        return
      }
      const error = (result?.body as { error?: { code?: string; message?: string } } | null)?.error
      results.push(
        new BackendError({
          status: result?.status,
          code: result ? answerCode(error?.code, result.status) : 'missing_result',
          message: error?.message,
          method: sub.method,
          path: sub.path,
          attempts: 1,
        }),
      )
    })
  }
  if (results.some((r) => r instanceof BackendError)) throw new BatchError<T>({ results })
  return results as T[]
}

/**
 * Saves many objects in batches of `client.batchSize` (20); resolves to the saved objects in
 * input order. When some fail, throws `BatchError` whose `results` line up with the input.
 */
export async function saveAll<T extends ObjectData>(
  client: BackendClient,
  objects: PorticoObject<T>[],
): Promise<SavedObject<T>[]> {
  return runBatches(client, objects.map(saveRequest), (body) => fromWire<T>(body as WireObject))
}

/** Deletes many objects in batches of `client.batchSize`; `BatchError` when some fail. */
export async function destroyAll(client: BackendClient, objects: ObjectRef[]): Promise<void> {
  const requests = objects.map((o) => ({
    method: 'DELETE' as const,
    path: objectPath(o.className, o.objectId),
  }))
  await runBatches(client, requests, () => undefined)
}
