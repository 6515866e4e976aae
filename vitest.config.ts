import { defaultClientConditions, defaultServerConditions } from 'vite'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

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

// Server test files that change what the files after them in one worker would see: the Parse and
// Moralis SDKs (one process-wide client each: its server URL, current user and LiveQuery socket),
// the environment a sync reads its contracts from, or spies. They keep a fresh module graph each
// (`server-isolated`); every other server file shares its worker's graph (`server`), saving the
// seconds each file would spend importing the server anew.
const serverIsolated = [
  'packages/server/src/cloud/cloud-moralis.test.ts',
  'packages/server/src/cloud/cloud-parse.test.ts',
  'packages/server/src/cloud/synced-triggers.test.ts',
  'packages/server/src/commands/sync-status.test.ts',
  'packages/server/src/compat/attacks.test.ts',
  'packages/server/src/compat/class-permissions.test.ts',
  'packages/server/src/compat/linked-wallets.test.ts',
  'packages/server/src/compat/live-query-protocol.test.ts',
  'packages/server/src/compat/moralis-v1-access.test.ts',
  'packages/server/src/compat/moralis-v1.test.ts',
  'packages/server/src/compat/parse-access.test.ts',
  'packages/server/src/compat/parse-aggregate.test.ts',
  'packages/server/src/compat/parse-queries.test.ts',
  'packages/server/src/compat/parse-query-options.test.ts',
  'packages/server/src/compat/parse-saves.test.ts',
  'packages/server/src/compat/parse-sdk.test.ts',
  'packages/server/src/compat/parse-types.test.ts',
  'packages/server/src/compat/password-users.test.ts',
  'packages/server/src/compat/readme-example.test.ts',
  'packages/server/src/compat/relation-clone.test.ts',
  'packages/server/src/compat/signed-out-writes.test.ts',
  'packages/server/src/compat/two-processes.test.ts',
  'packages/server/src/http/behind-nginx.test.ts',
  'packages/server/src/import/parse-import.test.ts',
  'packages/server/src/objects/signed-out-write-limit.test.ts',
  'packages/server/src/sync/factory.test.ts',
  'packages/server/src/sync/heads.test.ts',
  'packages/server/src/sync/integers.test.ts',
  'packages/server/src/sync/moralis-v1.test.ts',
  'packages/server/src/sync/readme-example.test.ts',
  'packages/server/src/sync/several.test.ts',
  'packages/server/src/sync/sync.test.ts',
  'packages/server/src/sync/synced-class-writes.test.ts',
  'packages/server/src/sync/watches.test.ts',
]

// Files in the order workers take them: the isolated server files first, then the shared ones,
// each group slowest first (Vitest's order: by the last run's durations, by size without one). A
// shared worker keeps its module graph only while the next file in the queue is also a shared
// one, so the two groups are not interleaved; and the short shared files end the run, keeping
// both workers busy to its end.
class IsolatedFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) =>
      ['server-isolated', 'server'].indexOf(file.project.name) + 1 || 3
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: IsolatedFirst },
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
          exclude: ['**/node_modules/**', '**/dist/**', ...serverIsolated],
          globalSetup: ['packages/server/test/postgres-cluster.ts'],
          setupFiles: ['packages/server/test/after-file.ts'],
          // PORTICO_TEST_ISOLATE=1 gives every file its own graph again (to tell whether a failure
          // comes from a file before it in the worker).
          isolate: process.env.PORTICO_TEST_ISOLATE === '1',
          execArgv: ['--expose-gc'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...nodeSource,
        test: {
          name: 'server-isolated',
          include: serverIsolated,
          globalSetup: ['packages/server/test/postgres-cluster.ts'],
          setupFiles: ['packages/server/test/after-file.ts'],
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
