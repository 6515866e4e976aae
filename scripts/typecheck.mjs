#!/usr/bin/env node
// Type-checks every workspace (`tsc -p` of each), as many at once as the machine has cores: each
// tsc keeps one core busy, and one after another the eight took some three CPU-minutes. Every
// project's output is printed whole once it ends; the exit code is 1 if any failed.
import { spawn } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// Largest first, so that the last one left running is a short one.
const projects = [
  'packages/server',
  'bench',
  'apps/web',
  'packages/sdk',
  'packages/react',
  'e2e',
  'test-kit',
  'packaging',
]
const tsc = path.join(root, 'node_modules', '.bin', 'tsc')

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(tsc, ['-p', project], { cwd: root })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', (error) => resolve({ project, ok: false, output: String(error) }))
    child.on('close', (code) => resolve({ project, ok: code === 0, output }))
  })
}

const queue = [...projects]
let failed = false
async function worker() {
  for (let project = queue.shift(); project; project = queue.shift()) {
    const result = await check(project)
    console.log(`tsc -p ${result.project}: ${result.ok ? 'ok' : 'FAILED'}`)
    if (result.output) process.stdout.write(result.output)
    failed ||= !result.ok
  }
}
const parallel = Math.max(1, Math.min(os.availableParallelism(), projects.length))
await Promise.all(Array.from({ length: parallel }, worker))
process.exitCode = failed ? 1 : 0
