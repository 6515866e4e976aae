/**
 * Setup file of the `server` project. The files of a worker share one process and its module
 * cache (`isolate: false`: importing the server once per worker, not once per file), so what a
 * file sets in `process.env` (a site module's SYNC_* settings) is put back when its tests end:
 * the next file starts from the environment the run began with.
 */
import { afterAll } from 'vitest'

const before = { ...process.env }

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name]
  Object.assign(process.env, before)
})
