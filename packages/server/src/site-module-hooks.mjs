// Module resolution hooks for the site module (FUNCTIONS_MODULE), registered by site-module.ts
// when that module lives outside Portico's folder: a bare import it makes (`import { parseAbi }
// from 'viem'`) that its own folder cannot resolve is resolved from Portico's, so the packages
// Portico ships with serve a module kept anywhere. Anything its own folder resolves wins.

/** Where Portico's own imports resolve from. */
let portico = ''

/** @param {{ parentURL: string }} data */
export function initialize(data) {
  portico = data.parentURL
}

/** A package name, not a path or URL: `viem`, `viem/accounts`, `@scope/name`. */
const bare = (specifier) => !/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(specifier)

/**
 * @param {string} specifier
 * @param {{ parentURL?: string }} context
 * @param {(specifier: string, context?: object) => Promise<unknown>} next
 */
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context)
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !bare(specifier) || !portico) throw error
    return next(specifier, { ...context, parentURL: portico })
  }
}
