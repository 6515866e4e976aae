// Bundles the server's own code, and the SDK modules it shares (read from their sources), into
// dist/cli.js; npm dependencies stay external.
import { build } from 'esbuild'

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.js',
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
