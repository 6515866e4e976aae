// What every benchmark process does around its measurement: a data folder of its own, the child
// processes it starts stopped on any exit, and a time cap, so that a run always stops by itself.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * Sets the process up for the benchmark `name` (as `npm run` names it), stopping it after
 * `minutes`: its data folder (removed on exit) and the list to push started children onto.
 * @param {string} name
 * @param {number} minutes
 */
export function benchProcess(name, minutes) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portico-${name.replace(':', '-')}-`))
  /** @type {import('node:child_process').ChildProcess[]} */
  const children = []
  process.on('SIGTERM', () => process.exit(143))
  process.on('SIGINT', () => process.exit(130))
  process.on('exit', () => {
    // SIGTERM: anvil's npm launcher passes it on to anvil itself.
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
  setTimeout(() => {
    console.error(`${name} took longer than ${minutes} minutes, stopping`)
    process.exit(1)
  }, minutes * 60_000).unref()
  process.on('unhandledRejection', (error) => {
    console.error(error)
    process.exit(1)
  })
  return { dataDir, children }
}
