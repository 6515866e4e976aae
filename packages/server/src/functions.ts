// The public types of a site's server module: the module named by FUNCTIONS_MODULE exports a
// default setup function, which the server calls once at start to define the site's functions
// and contract-event syncs.
//
//   import type { FunctionsSetup } from '@portico/server/functions'
//   const setup: FunctionsSetup = ({ defineFunction }) => {
//     defineFunction('greet', ({ params, user }) => `Hello ${user?.address ?? String(params.name)}`)
//   }
//   export default setup

import type { SyncDefinition } from './sync/definition.ts'

export type { SyncDefinition }

/** What a function is called with. */
export interface FunctionRequest {
  /** The caller's parameters (`Moralis.Cloud.run(name, params)`). */
  params: Record<string, unknown>
  /**
   * The signed-in caller; null for an anonymous one. `address` is their primary wallet, null
   * for a password user (Parse-compatible API) who has linked none.
   */
  user: { id: string; address: string | null } | null
}

/** A site function: its result is answered as `{ result }` (it must be JSON). */
export type SiteFunction = (request: FunctionRequest) => unknown

export interface FunctionsApi {
  /** Makes `name` callable (names are letters, digits and `_`; built-ins cannot be replaced). */
  defineFunction(name: string, handler: SiteFunction): void
  /** Keeps a class filled with a contract's events (see the README, "Sync contract events"). */
  defineSync(definition: SyncDefinition): void
}

/** The default export of a FUNCTIONS_MODULE. */
export type FunctionsSetup = (api: FunctionsApi) => void | Promise<void>
