// Loaded with `--import` after tsx by bench:rpc's second gateway: wherever the server imports
// its upstream client (packages/server/src/rpc/upstream-http.ts), it gets bench/rpc-undici-client.mjs,
// the same interface on undici's Pool. The product has no switch for this; only the bench swaps it.
import { register } from 'node:module'
import { isMainThread } from 'node:worker_threads'

const client = new URL('./rpc-undici-client.mjs', import.meta.url).href

// This file registers itself as the hooks module; the hooks run in a thread of their own.
if (isMainThread) register(import.meta.url)

/**
 * @param {string} specifier
 * @param {object} context
 * @param {(specifier: string, context: object) => Promise<{ url: string, format?: string | null }>} next
 */
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  return resolved.url.endsWith('/packages/server/src/rpc/upstream-http.ts')
    ? { url: client, format: 'module', shortCircuit: true }
    : resolved
}
