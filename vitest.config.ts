import { defaultClientConditions, defaultServerConditions } from 'vite'
import { defineConfig } from 'vitest/config'

// Workspace packages are read from their sources (the `source` export condition), not from dist/.
const source = {
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
}
// The server's tests resolve packages as Node itself does: without the bundlers' `module`
// condition, which points some packages (the AWS SDK) at builds Node cannot load.
const nodeSource = {
  resolve: source.resolve,
  ssr: {
    resolve: {
      conditions: ['source', ...defaultServerConditions.filter((c) => c !== 'module')],
      externalConditions: ['node'],
    },
  },
}

export default defineConfig({
  test: {
    // A run of many files ends with its slowest ones (test-kit/src/slowest-files.ts).
    reporters: ['default', './test-kit/src/slowest-files.ts'],
    projects: [
      {
        ...source,
        test: {
          name: 'unit',
          include: [
            'packages/sdk/**/*.test.ts',
            'packages/react/**/*.test.{ts,tsx}',
            'apps/web/**/*.test.{ts,tsx}',
          ],
          exclude: ['**/node_modules/**', '**/dist/**'],
          testTimeout: 20_000,
        },
      },
      {
        ...nodeSource,
        test: {
          name: 'server',
          include: ['packages/server/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          globalSetup: ['packages/server/test/postgres-cluster.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...source,
        test: {
          name: 'packaging',
          include: ['packaging/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
})
