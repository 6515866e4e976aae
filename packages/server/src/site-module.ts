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
