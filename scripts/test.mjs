#!/usr/bin/env node
// `npm test`: the whole suite. The server suite spends much of its time waiting on the processes,
// chains and databases its tests start, so the short phases (unit tests, packaging, which is
// mostly an npm install, and the browser tests' build) run beside it on the cores it leaves
// idle. The browser tests come last, alone: they keep both cores busy. A phase's output is
// printed whole when it ends; any failed phase fails the run, and the browser tests only run
// when everything before them passed.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-test-'))

/**
 * Runs `npm <args>`; resolves to whether it passed. Its output goes to a file printed whole when
 * it ends, or with `live` (a phase that runs alone) straight to this process's.
 */
function phase(name, args, { live = false } = {}) {
  const started = Date.now()
  const file = path.join(logs, name.replace(/\W+/g, '-'))
  const out = live ? 'inherit' : fs.openSync(file, 'w')
  if (live) process.stdout.write(`\n== ${name}\n`)
  const child = spawn('npm', args, { cwd: root, stdio: ['ignore', out, out] })
  return new Promise((resolve) => {
    child.on('error', (error) => {
      if (live) console.error(error)
      else fs.appendFileSync(file, `\n${error.stack}\n`)
    })
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0)
      const passed = code === 0
      if (!live) {
        fs.closeSync(out)
        process.stdout.write(`\n== ${name}\n`)
        process.stdout.write(fs.readFileSync(file))
      }
      process.stdout.write(
        `== ${name}: ${passed ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds} s\n`,
      )
      resolve(passed)
    })
  })
}

/** Phases one after another, stopping at the first that fails. */
async function inTurn(phases) {
  for (const [name, args] of phases) if (!(await phase(name, args))) return false
  return true
}

const [server, others] = await Promise.all([
  inTurn([['server tests', ['run', 'test:server']]]),
  inTurn([
    ['unit tests', ['run', 'test:unit']],
    ['packaging tests', ['run', 'test:packaging']],
    ['browser tests build', ['run', 'build:e2e']],
  ]),
])
fs.rmSync(logs, { recursive: true, force: true })
if (!server || !others) {
  console.error('\nnpm test: a phase failed (above); the browser tests were not run.')
  process.exit(1)
}
const passed = await phase('browser tests', ['run', 'test', '-w', '@portico/e2e'], { live: true })
process.exit(passed ? 0 : 1)
