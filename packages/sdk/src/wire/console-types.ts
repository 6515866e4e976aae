import type { FromSchema, JSONSchema } from 'json-schema-to-ts'
import type { consoleImportLineSchema, consoleRoutes } from './console.ts'

// The console API's types by route (`'GET /api/admin/users'`), derived from its schemas: what a
// call sends (`params`, `query`, `body`) and what it answers.

type Routes = typeof consoleRoutes

/** A console route: `METHOD /path`, its parameters written `:name`. */
export type ConsoleRoute = keyof Routes

type Part<R extends ConsoleRoute, K extends string> = Routes[R] extends {
  readonly [key in K]: infer S
}
  ? S extends JSONSchema
    ? FromSchema<S>
    : never
  : undefined

/** The path's parameters of `R` (undefined: it has none). */
export type ConsoleParams<R extends ConsoleRoute> = Part<R, 'params'>
/** The query string of `R` (undefined: it takes none). */
export type ConsoleQuery<R extends ConsoleRoute> = Part<R, 'querystring'>
/** The JSON body of `R` (undefined: it takes none). */
export type ConsoleBody<R extends ConsoleRoute> = Part<R, 'body'>
/** What `R` answers when it works (null: no content). */
export type ConsoleAnswer<R extends ConsoleRoute> = Part<R, 'answer'>

export type ConsoleUserRow = ConsoleAnswer<'GET /api/admin/users'>['results'][number]
export type ConsoleSessionRow =
  ConsoleAnswer<'GET /api/admin/users/:userId/sessions'>['results'][number]
export type ConsoleApiKeyRow = ConsoleAnswer<'GET /api/admin/api-keys'>['results'][number]
export type ConsoleSetting = ConsoleAnswer<'GET /api/admin/settings'>['results'][number]
export type ConsoleAuditEntry = ConsoleAnswer<'GET /api/admin/audit'>['results'][number]
export type ConsoleSyncRow = ConsoleAnswer<'GET /api/admin/syncs'>['results'][number]
export type ConsoleAddressIndexChain =
  ConsoleAnswer<'GET /api/admin/address-index'>['chains'][number]
export type ConsoleIndexedAddress =
  ConsoleAnswer<'GET /api/admin/address-index'>['addresses'][number]
export type ConsoleWeb3ApiFunction = ConsoleAnswer<'GET /api/admin/web3api'>['results'][number]
export type ConsoleFileRow = ConsoleAnswer<'GET /api/admin/files'>['results'][number]
export type ConsoleJobRun = ConsoleAnswer<'GET /api/admin/cloud/runs'>['results'][number]
export type ConsoleLogLine = ConsoleAnswer<'GET /api/admin/logs'>['results'][number]
export type ConsoleFieldIndex =
  ConsoleAnswer<'GET /api/admin/classes/:className/indexes'>['indexes'][number]
export type ConsoleClassDefaults = ConsoleAnswer<'GET /api/admin/classes/:className/defaults'>
export type ConsoleDeclaredField =
  ConsoleAnswer<'GET /api/admin/classes/:className/fields'>['fields'][string]

/** One line of what `POST /api/admin/import/:className` answers (NDJSON). */
export type ConsoleImportLine = FromSchema<typeof consoleImportLineSchema>
export type ConsoleImportReport = Extract<ConsoleImportLine, { report: unknown }>['report']
export type ConsoleImportProgress = Extract<ConsoleImportLine, { progress: unknown }>['progress']
