// `npm start`: builds what is missing or out of date, then serves the web app and the API on one
// port with the embedded database (or PostgreSQL when DATABASE_URL is set).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const at = (...parts) => path.join(root, ...parts)

const targets = [
  {
    workspace: '@portico/web',
    output: at('apps/web/dist/index.html'),
    sources: [
      at('apps/web/src'),
      at('apps/web/index.html'),
      at('apps/web/public'),
      at('apps/web/scripts'),
      at('apps/web/vite.config.ts'),
      at('packages/sdk/src'),
      at('packages/react/src'),
    ],
  },
  {
    workspace: '@portico/server',
    output: at('packages/server/dist/cli.js'),
    sources: [at('packages/server/src'), at('packages/sdk/src'), at('packages/server/build.mjs')],
  },
]

for (const target of targets) {
  if (isFresh(target.output, target.sources)) continue
  console.log(`Building ${target.workspace}…`)
  const result = spawnSync('npm', ['run', 'build', '-w', target.workspace], {
    cwd: root,
    stdio: 'inherit',
  })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

const server = spawn(
  process.execPath,
  ['--enable-source-maps', at('packages/server/dist/cli.js'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: { WEB_DIR: at('apps/web/dist'), ...process.env },
  },
)
// The server handles SIGINT/SIGTERM itself (clean shutdown); this process only waits for it.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))

/** True when the output exists and is newer than every source file. */
function isFresh(output, sources) {
  if (!fs.existsSync(output)) return false
  const built = fs.statSync(output).mtimeMs
  return sources.every((source) => newest(source) <= built)
}

function newest(file) {
  if (!fs.existsSync(file)) return 0
  const stat = fs.statSync(file)
  if (!stat.isDirectory()) return stat.mtimeMs
  return fs
    .readdirSync(file)
    .reduce((latest, name) => Math.max(latest, newest(path.join(file, name))), stat.mtimeMs)
}
