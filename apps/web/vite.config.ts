import { fileURLToPath } from 'node:url'
import { defaultClientConditions, defaultServerConditions, defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// The client bundle and the SSR bundle (used only at build time to pre-render Home) share this
// config; scripts/build.mjs drives both builds.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  // The workspace packages are built from their sources (the `source` export condition).
  resolve: {
    conditions: ['source', ...defaultClientConditions],
    alias: [
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: fileURLToPath(
          new URL('./src/shell/use-sync-external-store.ts', import.meta.url),
        ),
      },
    ],
  },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
  // `npm run dev -w @portico/web` with the server running (npm start) on its default port.
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  build: {
    target: 'es2022',
    // Every browser that runs this bundle supports <link rel="modulepreload">; skip the polyfill.
    modulePreload: { polyfill: false },
    // Everything the entry imports statically goes into the entry's own chunk: by default React's
    // JSX runtime, the bundler's runtime and the preload helper (shared with the lazy pages) are
    // chunks of their own, each one more request and compressed apart, about 1 KB more gzip on
    // the first load.
    rolldownOptions: isSsrBuild
      ? {}
      : { output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } } },
  },
}))
