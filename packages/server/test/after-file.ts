/**
 * Setup file of the server projects, run before each test file. A worker of the `server` project
 * runs many files one after another in one module graph (isolation off), so each file ends by
 * putting back what the files after it would otherwise see:
 * - the environment as it was before the file (a file may set variables for what it starts);
 * - closing what the test helpers opened and the file did not close (databases, apps, clusters),
 *   each close bounded in time;
 * and each file starts with a full collection when the worker allows one (`--expose-gc`): a closed
 * PGlite's WebAssembly memory (hundreds of MB) is only returned by the collector, which V8 rarely
 * runs on its own, for its JavaScript heap stays small; and only once the file before is gone,
 * for its module still holds what it made while its own hooks run.
 * With PORTICO_TEST_MEMORY set, it also prints the worker's memory as each file starts.
 */
import path from 'node:path'
import { afterAll, expect } from 'vitest'
import { closeLeftovers } from './helpers.ts'

const environment = { ...process.env }

globalThis.gc?.()
if (process.env.PORTICO_TEST_MEMORY) {
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20)
  const { rss, heapUsed, external } = process.memoryUsage()
  console.log(
    `[memory] pid ${process.pid} rss ${mb(rss)} MB, heap ${mb(heapUsed)} MB, ` +
      `external ${mb(external)} MB, before ${path.relative(process.cwd(), expect.getState().testPath ?? '?')}`,
  )
}

// Registered before the file's own hooks, so it runs after them (Vitest runs after-hooks last
// registered first).
afterAll(async () => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name]
  Object.assign(process.env, environment)
  const { closed, failures } = await closeLeftovers()
  const file = path.relative(process.cwd(), expect.getState().testPath ?? '?')
  for (const failure of failures)
    console.warn(`[after-file] closing what ${file} left open:`, failure)
  if (process.env.PORTICO_TEST_MEMORY)
    console.log(`[memory] pid ${process.pid} ${closed} left open, after ${file}`)
}, 120_000)
