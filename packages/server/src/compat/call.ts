import type { SiteFunction } from '../functions.ts'
import type { AddressIndex } from '../addresses/service.ts'
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify'
import type { CurrentUser, Sessions } from '../auth/sessions.ts'
import type { SignIns } from '../auth/sign-in.ts'
import type { Users } from '../auth/users.ts'
import type { UserHoldings } from '../auth/user-holdings.ts'
import type { IdempotencyRecords } from '../idempotency/store.ts'
import type { SignInNonces } from '../auth/nonces.ts'
import type { LinkedAddresses } from '../auth/addresses.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { ANY_OWNER, type Changer } from '../objects/access.ts'
import type { ServerConfig } from '../config/server.ts'
import type { FileStore } from '../files/store.ts'
import type { FileRecords } from '../files/records.ts'
import type { WindowCounter } from '../db/cluster/cluster.ts'
import type { FieldIndexes } from '../objects/field-indexes.ts'
import type { Sync } from '../sync/definition.ts'
import type { Watches } from '../sync/watches.ts'
import type { Mailer } from '../mail/mailer.ts'
import type { Web3Api } from '../web3api/service.ts'
import { ParseCode, ParseError } from './parse-error.ts'
import type { MasterOwner } from './master-key.ts'
import type { SchemaReads } from './schema-reads.ts'
import type { RelationHolders } from './relation-queries.ts'
import type { PasswordUsers } from './password-logins.ts'
import type { AuditLog } from '../audit/log.ts'

// One call to the compatibility mount, whichever way it came: the envelope (`POST` with a
// text/plain JSON body carrying `_method`, `_ApplicationId`, `_SessionToken`…), a REST call with
// real verbs and `X-Parse-*` headers, or a sub-request of a batch (which shares its caller's
// session).

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'DELETE'])

/** The server's services the mount's routes use (a part of `Services`, services.ts). */
export interface CompatServices {
  config: ServerConfig
  log: FastifyBaseLogger
  fieldIndexes: FieldIndexes
  files: FileStore
  windowCounter: WindowCounter
  sessions: Sessions
  signIns: SignIns
  objects: ObjectStore
  /** The console's audit log (master-key file deletes are written to it). */
  audit: AuditLog
  /** Sign-in nonces (`getServerTime`, `requestMessage`). */
  nonces: SignInNonces
  /** The wallets linked to users. */
  linkedAddresses: LinkedAddresses
  /** Idempotency records (`X-Parse-Request-Id`). */
  idempotency: IdempotencyRecords
  /** Password users: their logins, sessions and mailed tokens. */
  passwordUsers: PasswordUsers
  /** What classes' objects hold beyond their schemas. */
  schemaReads: SchemaReads
  /** Which objects' relations hold given members (queries naming a relation field). */
  relationHolders: RelationHolders
  /** The users' own rows. */
  users: Users
  /** Everything a user has, read before a delete (`user.destroy()`). */
  userHoldings: UserHoldings
  /** The stored files' rows (a master-key delete finds the file's owner). */
  fileRecords: FileRecords
  /** The master key's user row, made before it owns anything. */
  masterOwner: MasterOwner
  /** The site's cloud code (its `afterLogout` trigger is told of logouts). */
  cloud: CompatCloud
  /** The contract-event syncs, whose classes the mount shows as Moralis v1 did. */
  syncs: readonly Sync[]
  /** Contract-event syncs made at run time (`watchContractEvent`). */
  watches: Watches
  /** The address index (`watchEthAddress` and the like add to it). */
  addressIndex: Pick<AddressIndex, 'chainIds' | 'watch' | 'unwatch'>
  /** Sends password resets and email verifications; undefined without SMTP_URL. */
  mailer: Mailer | undefined
  /** Moralis v1's Web3 API (`functions/getNativeBalance`, …). */
  web3api: Web3Api
  /** The site module's functions (a Web3 API name they define is theirs). */
  functions: ReadonlyMap<string, SiteFunction>
}

export interface CompatCall {
  services: CompatServices
  /** The HTTP request the call came in (its address, headers and log). */
  request: FastifyRequest
  /** Runs a request through the server's own routes (`trackEvent` is `POST /api/events`). */
  inject: FastifyInstance['inject']
  method: Method
  /** The path below the mount, without a leading slash (`classes/Item/abc`). */
  path: string
  /** The body's fields or the query's parameters, without the envelope's `_` fields. */
  params: Record<string, unknown>
  /** The body's bytes when it was not JSON (a REST client's file upload). */
  bytes: Buffer | undefined
  /** The Portico session token (the client's `r:` token without its prefix), if one was sent. */
  sessionToken: string | undefined
  /** Whether the call carries the master key (checked): it reads and writes every object. */
  master: boolean
  /** The signed-in user; 209 when a token was sent but is not a live session. */
  session(): Promise<CurrentUser | null>
  /** Like `session()`, but 209 when nobody is signed in. */
  requireSession(): Promise<CurrentUser>
}

export interface CompatAnswer {
  status?: number
  body: unknown
  /** Headers of the answer (a job's run id). */
  headers?: Record<string, string>
}

/** Prefix of every session token this mount hands out (the clients log out only such tokens). */
export const TOKEN_PREFIX = 'r:'

export const invalidSession = () =>
  new ParseError(ParseCode.INVALID_SESSION_TOKEN, 'Invalid session token: sign in again.')

/** The session resolver of a call carrying `token` (client form, with or without `r:`). */
export function sessionResolver(sessions: Sessions, token: string | undefined) {
  const bare = token?.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : token
  let pending: Promise<CurrentUser | null> | undefined
  const session = () => {
    pending ??= (async () => {
      if (!bare) return null
      if (bare.length > 200) throw invalidSession()
      const found = await sessions.find(bare)
      if (!found) throw invalidSession()
      return { ...found, via: 'bearer' as const }
    })()
    return pending
  }
  return {
    sessionToken: bare,
    session,
    requireSession: async () => {
      const current = await session()
      if (!current) throw new ParseError(ParseCode.INVALID_SESSION_TOKEN, 'Sign in first.')
      return current
    },
  }
}

/** Whose access a call reads with: everyone's with the master key, else the signed-in user's (or a visitor's). */
export async function viewerOf(call: CompatCall): Promise<Changer | undefined> {
  if (call.master) return ANY_OWNER
  return (await call.session())?.user.id
}

/**
 * Whose access a call writes with: everyone's with the master key, else the signed-in user's, or
 * undefined when nobody is signed in (the object store judges such a client as `*`, and refuses
 * its creates unless the class lets everyone create).
 */
export async function writerOf(call: CompatCall): Promise<Changer | undefined> {
  if (call.master) return ANY_OWNER
  return (await call.session())?.user.id
}

// What the mount asks of the site's cloud code (cloud/code.ts provides it): its functions, its
// jobs and its logout trigger. Declared here so that the mount does not depend on cloud code,
// which itself calls the mount's routes.

export interface CompatCloud {
  /** Whether cloud code defines function `name`. */
  hasFunction(name: string): boolean
  /** Runs function `name` for `call`; undefined when it returned nothing. */
  runFunction(call: CompatCall, name: string): Promise<unknown>
  readonly registry: { readonly jobs: { has(name: string): boolean; keys(): Iterable<string> } }
  readonly jobs: {
    start(name: string, params: Record<string, unknown>, source: 'api'): Promise<string>
  }
  readonly triggers: {
    afterLogout(user: { id: string }, sessionId: string): Promise<void>
  }
}
