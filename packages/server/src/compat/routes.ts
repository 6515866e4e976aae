import FindMyWay from 'find-my-way'
import type { ChainClients } from '../auth/signature.ts'
import { runBatch } from './batch.ts'
import { destroyUser } from './destroy-user.ts'
import type { CompatAnswer, CompatCall, CompatCloud, Method } from './call.ts'
import {
  compatClassName,
  createInClass,
  deleteFromClass,
  getFromClass,
  queryClass,
  updateInClass,
} from './classes.ts'
import { deleteFile, uploadFile } from './files.ts'
import { getConfig, putConfig } from './config.ts'
import {
  aggregateClass,
  deleteSchema,
  getSchema,
  listSchemas,
  purgeClass,
  saveSchema,
} from './schemas.ts'
import { jobsData, runFunction, startJob, type SiteFunctions } from './functions.ts'
import { ParseCode, ParseError } from './parse-error.ts'
import { getUser, logout, me, signIn, unlinkEthAddress, updateUser } from './users.ts'
import {
  logIn,
  requestEmailVerification,
  requestPasswordReset,
  verifyPassword,
} from './password-users.ts'

// The route table of the compatibility mount: every route once, in Fastify's own router. Single
// calls and batch sub-requests are dispatched through it alike; the verb it is looked up with is
// the envelope's (`_method`), which is why Fastify cannot route these calls itself.

/** A route's path parameters, decoded. */
export type RouteParams = Record<string, string>

/** A route answering calls. */
export interface CallRoute {
  kind: 'call'
  answer(call: CompatCall, params: RouteParams): Promise<CompatAnswer>
  /** Whether a repeated `X-Parse-Request-Id` is refused (request-id.ts); uploads are not kept. */
  once: boolean
}

/** A file's URL: a plain GET (apps put it in <img src>), served before any envelope check. */
export interface FileRoute {
  kind: 'file'
}

export type CompatRoute = CallRoute | FileRoute

export interface Found {
  route: CompatRoute
  params: RouteParams
}

export interface CompatRoutes {
  /**
   * The route of `method` on `path` (below the mount, as sent: each segment is decoded here),
   * or undefined (also for a segment that is not valid percent-encoding).
   */
  find(method: Method, path: string): Found | undefined
  /** The stored file's name when a plain GET of `path` is a file's URL. */
  fileName(path: string): string | undefined
  /** Answers `call` on its route (`find`), or refuses it as unavailable. */
  answer(call: CompatCall, found: Found | undefined): Promise<CompatAnswer>
  /** Finds `call`'s route and answers it: a batch's sub-requests come back through here. */
  dispatch(call: CompatCall): Promise<CompatAnswer>
}

export interface CompatRoutesOptions {
  /** Where the mount is (`/server`): batch sub-requests may name it in their paths. */
  mount: string
  clientFor: ChainClients
  functions: SiteFunctions
  /** The site's cloud code: its functions, and its jobs (`POST jobs/<name>`, master key). */
  cloud?: CompatCloud | undefined
}

/** What a segment must not hold to stay one segment of the router's path: it decodes them. */
const ROUTER_RESERVED = /[%/?#;]/g

/**
 * `path` as the router reads it: each segment decoded as the clients encode it, then with the
 * characters the router treats specially encoded again, so that a segment's decoded `/` or `?`
 * stays inside the segment and the router hands it back decoded.
 */
function routerPath(path: string): string {
  return `/${path
    .split('/')
    .map((segment) =>
      decodeURIComponent(segment).replace(
        ROUTER_RESERVED,
        (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
    )
    .join('/')}`
}

/**
 * The mount's route table.
 *
 * @example
 * const routes = compatRoutes({ mount: '/server', clientFor, functions })
 * await routes.dispatch(call) // call.method 'GET', call.path 'classes/Item/abc'
 */
export function compatRoutes(options: CompatRoutesOptions): CompatRoutes {
  // Class names, object ids and file names are checked by their routes, whatever their length.
  const router = FindMyWay({ maxParamLength: Number.MAX_SAFE_INTEGER })
  const on = (method: Method, pattern: string, route: CompatRoute) =>
    router.on(method, pattern, () => {}, route)
  const call = (
    answer: (call: CompatCall, params: RouteParams) => Promise<CompatAnswer>,
    once = true,
  ): CallRoute => ({ kind: 'call', answer, once })

  on(
    'POST',
    '/functions/:name',
    call(async (c, { name }) => {
      const result = await runFunction(c, name!, options.functions, options.cloud)
      // A function that returns nothing answers no `result`: the clients then resolve undefined.
      return { body: result === undefined ? {} : { result } }
    }),
  )
  on(
    'POST',
    '/jobs/:name',
    call(async (c, { name }) => startJob(c, name!, options.cloud)),
  )
  on(
    'GET',
    '/cloud_code/jobs/data',
    call(async (c) => jobsData(c, options.cloud)),
  )
  on(
    'POST',
    '/users',
    call((c) => signIn(c, options.clientFor)),
  )
  on('GET', '/users/me', call(me))
  const getOneUser = call((c, { objectId }) => getUser(c, objectId!))
  on('GET', '/users/:objectId', getOneUser)
  on('GET', '/classes/_User/:objectId', getOneUser)
  // A user's own object may carry a wallet to link (`authData`); deleting an `_EthAddress`
  // unlinks the wallet (what `Moralis.link` / `unlink` send).
  const putUser = call((c, { objectId }) => updateUser(c, objectId!, options.clientFor))
  on('PUT', '/users/:objectId', putUser)
  on('PUT', '/classes/_User/:objectId', putUser)
  on(
    'DELETE',
    '/users/:objectId',
    call((c, { objectId }) => destroyUser(c, objectId!)),
  )
  on(
    'DELETE',
    '/classes/_EthAddress/:objectId',
    call((c, { objectId }) => unlinkEthAddress(c, objectId!)),
  )
  on('POST', '/logout', call(logout))
  on('GET', '/login', call(logIn))
  on('POST', '/login', call(logIn))
  on('GET', '/verifyPassword', call(verifyPassword))
  on('POST', '/verifyPassword', call(verifyPassword))
  on('POST', '/requestPasswordReset', call(requestPasswordReset))
  on('POST', '/verificationEmailRequest', call(requestEmailVerification))
  on(
    'POST',
    '/batch',
    call((c) => runBatch(c, options.mount, dispatch)),
  )
  on(
    'GET',
    '/classes/:className',
    call((c, { className }) => queryClass(c, compatClassName(className!))),
  )
  on(
    'POST',
    '/classes/:className',
    call((c, { className }) => createInClass(c, compatClassName(className!))),
  )
  on(
    'GET',
    '/classes/:className/:objectId',
    call((c, { className, objectId }) => getFromClass(c, compatClassName(className!), objectId!)),
  )
  on(
    'PUT',
    '/classes/:className/:objectId',
    call((c, { className, objectId }) => updateInClass(c, compatClassName(className!), objectId!)),
  )
  on(
    'DELETE',
    '/classes/:className/:objectId',
    call((c, { className, objectId }) =>
      deleteFromClass(c, compatClassName(className!), objectId!),
    ),
  )
  on(
    'POST',
    '/files/:name',
    call((c, { name }) => uploadFile(c, name!), false),
  )
  on(
    'DELETE',
    '/files/:name',
    call((c, { name }) => deleteFile(c, name!)),
  )
  on('GET', '/files/:appId/:name', { kind: 'file' })
  // What the clients' offline queue (`saveEventually`) asks before sending what it kept.
  on(
    'GET',
    '/health',
    call(async () => ({ body: { status: 'ok' } }), false),
  )
  on('GET', '/config', call(getConfig, false))
  on('PUT', '/config', call(putConfig))
  on(
    'GET',
    '/aggregate/:className',
    call((c, { className }) => aggregateClass(c, className!), false),
  )
  // A class's fields and class-level permissions, master key only.
  on('GET', '/schemas', call(listSchemas, false))
  on(
    'POST',
    '/schemas',
    call((c) => saveSchema(c, undefined, true)),
  )
  on(
    'GET',
    '/schemas/:className',
    call((c, { className }) => getSchema(c, className!), false),
  )
  on(
    'POST',
    '/schemas/:className',
    call((c, { className }) => saveSchema(c, className!, true)),
  )
  on(
    'PUT',
    '/schemas/:className',
    call((c, { className }) => saveSchema(c, className!, false)),
  )
  on(
    'DELETE',
    '/schemas/:className',
    call((c, { className }) => deleteSchema(c, className!)),
  )
  on(
    'DELETE',
    '/purge/:className',
    call((c, { className }) => purgeClass(c, className!)),
  )

  function find(method: Method, path: string): Found | undefined {
    let readable: string
    try {
      readable = routerPath(path)
    } catch (error) {
      // A segment that is not valid percent-encoding names no route: refused as unavailable.
      if (error instanceof URIError) return undefined
      throw error
    }
    const found = router.find(method, readable)
    if (!found) return undefined
    return { route: found.store as CompatRoute, params: found.params as RouteParams }
  }

  async function answer(call: CompatCall, found: Found | undefined): Promise<CompatAnswer> {
    if (found?.route.kind === 'call') return found.route.answer(call, found.params)
    throw new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      `${call.method} ${call.path.slice(0, 100)} is not available on Portico's Parse-compatible API.`,
    )
  }

  async function dispatch(call: CompatCall): Promise<CompatAnswer> {
    return answer(call, find(call.method, call.path))
  }

  return {
    find,
    answer,
    dispatch,
    fileName(path) {
      const found = find('GET', path)
      const { appId, name } = found?.params ?? {}
      // Both segments are there (the router also matches empty ones).
      return found?.route.kind === 'file' && appId && name ? name : undefined
    },
  }
}
