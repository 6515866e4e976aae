import { createRequire, register } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { FUNCTION_NAME, isFreeFunctionName, type SiteFunctions } from './compat/functions.ts'
import type { FunctionsSetup, SiteFunction, SyncDefinition } from './functions.ts'

// The site's own server module (FUNCTIONS_MODULE): a JavaScript module whose default export
// receives `defineFunction` and `defineSync`, called once at start.

export interface SiteModule {
  functions: SiteFunctions
  syncs: SyncDefinition[]
}

export async function loadSiteModule(modulePath: string | undefined): Promise<SiteModule> {
  const functions = new Map<string, SiteFunction>()
  const syncs: SyncDefinition[] = []
  if (!modulePath) return { functions, syncs }
  resolveBareImportsFromPortico(path.resolve(modulePath))
  const loaded = (await import(pathToFileURL(path.resolve(modulePath)).href)) as {
    default?: FunctionsSetup
  }
  if (typeof loaded.default !== 'function')
    throw new Error(`FUNCTIONS_MODULE ${modulePath} must export a default setup function.`)
  await loaded.default({
    defineFunction(name, handler) {
      if (!FUNCTION_NAME.test(name))
        throw new Error(`Function names are letters, digits and _ (got "${name}").`)
      if (!isFreeFunctionName(name) || functions.has(name))
        throw new Error(`The function "${name}" is already defined.`)
      if (typeof handler !== 'function') throw new Error(`The function "${name}" needs a handler.`)
      functions.set(name, handler)
    },
    defineSync(definition) {
      if (syncs.some((sync) => sync.name === definition?.name))
        throw new Error(`The sync "${String(definition.name)}" is already defined.`)
      syncs.push(definition)
    },
  })
  return { functions, syncs }
}

let hooked = false

/**
 * Lets a site module kept outside Portico's folder import the packages Portico has (`viem`
 * first of all, which the README's sync example imports): Node resolves a bare import from the
 * importing file's folder up, so from `/srv/site/functions.mjs` it never reaches Portico's
 * `node_modules`. A resolution hook (site-module-hooks.mjs) retries such an import from
 * Portico's own folder when the module's folder has no answer. Inside Portico's folder nothing
 * is needed, and no hook is registered.
 */
function resolveBareImportsFromPortico(modulePath: string): void {
  if (hooked) return
  const viem = createRequire(import.meta.url).resolve('viem')
  const root = viem.slice(0, viem.lastIndexOf(`${path.sep}node_modules${path.sep}`))
  if (!path.relative(root, modulePath).startsWith('..')) return
  hooked = true
  const hooks = import.meta.url.endsWith('.ts')
    ? './site-module-hooks.mjs'
    : './site-module-hooks.js'
  register(new URL(hooks, import.meta.url), { data: { parentURL: import.meta.url } })
}
