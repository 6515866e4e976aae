/**
 * Setup file of the server projects. A worker that runs many files (isolation off) must not keep
 * what the files before it left behind, so each file ends by:
 * - closing what the test helpers opened and the file did not close (databases, apps);
 * - a full collection when the worker allows one (`--expose-gc`): a closed PGlite's WebAssembly
 *   memory (hundreds of MB) is only returned by the collector, which V8 rarely runs on its own,
 *   for its JavaScript heap stays small.
 * With PORTICO_TEST_MEMORY set, it also prints the worker's memory after each file.
 */
import path from 'node:path'
import { afterAll, expect } from 'vitest'
import { closeLeftovers } from './helpers.ts'

afterAll(async () => {
  const left = await closeLeftovers()
  const before = process.memoryUsage().rss
  globalThis.gc?.()
  if (!process.env.PORTICO_TEST_MEMORY) return
  const file = path.relative(process.cwd(), expect.getState().testPath ?? '?')
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20)
  const { rss, heapUsed, external } = process.memoryUsage()
  console.log(
    `[memory] pid ${process.pid} rss ${mb(before)} → ${mb(rss)} MB, heap ${mb(heapUsed)} MB, ` +
      `external ${mb(external)} MB, ${left} left open, after ${file}`,
  )
})
