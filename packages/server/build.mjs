// Bundles the server's own code, and the SDK modules it shares (read from their sources), into
// dist/cli.js; npm dependencies stay external.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { build } from 'esbuild'

// Modules the command line imports once its port is open (cli.ts) go into chunks of their own
// beside it, so that starting loads only what opening the port needs.
fs.mkdirSync('dist', { recursive: true })
for (const file of fs.readdirSync('dist', { withFileTypes: true }))
  if (file.isFile() && file.name.startsWith('chunk-')) fs.rmSync(path.join('dist', file.name))
await build({
  entryPoints: ['src/cli.ts'],
  outdir: 'dist',
  splitting: true,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  conditions: ['source'],
  plugins: [
    {
      name: 'external-packages',
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@portico/') ? undefined : { path: args.path, external: true },
        )
      },
    },
  ],
  sourcemap: true,
  logLevel: 'warning',
})

// The API reference's browser bundle, served by /api/docs/reference.js (meta/routes.ts).
fs.copyFileSync(
  createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'),
  'dist/api-reference.js',
)

// The site module's resolution hooks are loaded by Node as their own file (site-module.ts).
await build({
  entryPoints: ['src/site-module-hooks.mjs'],
  outfile: 'dist/site-module-hooks.js',
  platform: 'node',
  target: 'node20',
  format: 'esm',
  logLevel: 'warning',
})

// The sign-in signature worker runs as its own file beside cli.js (auth/signer-recovery.ts).
await build({
  entryPoints: ['src/auth/recover-worker.mjs'],
  outfile: 'dist/recover-worker.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
})

// The embedded database's template, so that a new data directory starts from a migrated
// database instead of creating one (db/pglite-template.ts).
await build({
  entryPoints: ['src/db/make-template.ts'],
  outfile: 'dist/make-template.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
})
for (const file of fs.readdirSync('dist'))
  if (file.startsWith('pglite-template-')) fs.rmSync(path.join('dist', file))
execFileSync(process.execPath, ['dist/make-template.js', 'dist'], { stdio: 'inherit' })
