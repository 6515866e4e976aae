#!/usr/bin/env node
// `npx portico …` (or `portico …` once installed): the server's command line. In a checkout it
// runs from the TypeScript sources (no build needed), with the settings `npm start` uses: the
// embedded database in the repository's `data/` and the web app's build, wherever it is run
// from. A packaged server without sources runs its build, dist/cli.js.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const root = path.resolve(server, '../..')
const source = path.join(server, 'src', 'cli.ts')
const inCheckout = fs.existsSync(source)
const env = { ...process.env }
if (inCheckout && isPorticoRoot(root)) {
  env.DATA_DIR ||= path.join(root, 'data')
  env.WEB_DIR ||= path.join(root, 'apps', 'web', 'dist')
}
const args = inCheckout
  ? // tsx as the checkout has it, wherever the command runs.
    ['--conditions=source', '--import', import.meta.resolve('tsx'), source]
  : ['--enable-source-maps', path.join(server, 'dist', 'cli.js')]
const child = spawn(process.execPath, [...args, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env,
})
// The command handles SIGINT/SIGTERM itself; this process only waits for it.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))

function isPorticoRoot(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name === 'portico'
  } catch {
    return false // not in a checkout of the repository: the defaults of the current directory
  }
}
