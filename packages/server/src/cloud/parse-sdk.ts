import { createRequire } from 'node:module'
import path from 'node:path'

// Cloud code's `Parse` (and `Moralis`): the real Parse JS SDK, as Parse Server gives it to cloud
// code, with its REST controller replaced by one that answers in this process (no HTTP round
// trip). The SDK keeps its settings in module state, so the server loads its own copy: a site's
// code or a test that also uses `parse/node` as a client keeps its own, untouched.

const require = createRequire(import.meta.url)

// The SDK's public surface as cloud code uses it; typed loosely on purpose (its own types
// describe the client build, and the handlers are the site's JavaScript).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ParseSdk = any

/** What the SDK asks its REST controller (path below the mount, data as JSON, options). */
export interface RestController {
  request(
    method: string,
    path: string,
    data: unknown,
    options?: Record<string, unknown>,
  ): Promise<unknown>
  ajax(): Promise<never>
}

/** A copy of the Parse SDK of its own, set up to answer through `controller`. */
export function loadParseSdk(options: {
  appId: string
  serverUrl: string
  controller: RestController
}): ParseSdk {
  const Parse = isolatedRequire('parse/node') as ParseSdk
  // The key is never sent anywhere: the controller decides what `useMasterKey` may do. The SDK
  // refuses `useMasterKey` unless some key is set.
  Parse.initialize(options.appId, undefined, 'in-process')
  Parse.serverURL = options.serverUrl
  Parse.CoreManager.setRESTController(options.controller)
  // Each request's objects are its own (as in Parse Server): no instance shared between them.
  Parse.Object.disableSingleInstance()
  return Parse
}

/**
 * `specifier` loaded afresh with every module of its package: the modules already in Node's
 * cache are set aside while it loads and put back after, so both copies live side by side.
 */
function isolatedRequire(specifier: string): unknown {
  const entry = require.resolve(specifier)
  const marker = `${path.sep}node_modules${path.sep}parse${path.sep}`
  const root = entry.slice(0, entry.lastIndexOf(marker) + marker.length)
  const ours = (key: string) => key.startsWith(root)
  const saved = new Map<string, NodeJS.Module>()
  for (const [key, module] of Object.entries(require.cache))
    if (ours(key) && module) {
      saved.set(key, module)
      delete require.cache[key]
    }
  try {
    return require(specifier)
  } finally {
    for (const key of Object.keys(require.cache)) if (ours(key)) delete require.cache[key]
    for (const [key, module] of saved) require.cache[key] = module
  }
}
