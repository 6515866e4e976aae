import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// The client bundle and the SSR bundle (used only at build time to pre-render Home) share this
// config; scripts/build.mjs drives both builds.
export default defineConfig({
  plugins: [react()],
  build: {
    target: 'es2022',
    // Every browser that runs this bundle supports <link rel="modulepreload">; skip the polyfill.
    modulePreload: { polyfill: false },
  },
})
