import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
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
        test: {
          name: 'server',
          include: ['packages/server/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          globalSetup: ['packages/server/test/postgres-cluster.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
