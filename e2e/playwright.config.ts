import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH, assertChromium } from './chromium.mjs'
import { freePort } from './ports.ts'

// Browser tests run Debian's Chromium against the REAL built server (packages/server/dist/cli.js)
// serving the REAL built app (apps/web/dist-e2e, built with test-only settings). `npm run test:e2e`
// builds both first.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
assertChromium()
for (const built of ['packages/server/dist/cli.js', 'apps/web/dist-e2e/index.html']) {
  if (!fs.existsSync(path.join(repoRoot, built))) {
    throw new Error(`${built} is missing: run "npm run build" first (npm run test:e2e does).`)
  }
}

// This file is loaded by the runner and again by every worker; the runner creates the throwaway
// data directory once and the workers inherit it through the environment.
if (!process.env.PORTICO_E2E_DATA_DIR) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-e2e-'))
  process.env.PORTICO_E2E_DATA_DIR = dataDir
  process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }))
}

// Fixed free ports chosen once by the runner: sign-in messages must name the server's real
// origin (PUBLIC_ORIGINS), and the server's RPC gateway needs the anvil chain's URL at start.
if (!process.env.PORTICO_E2E_PORT) process.env.PORTICO_E2E_PORT = String(await freePort())
if (!process.env.PORTICO_E2E_ANVIL_PORT) {
  process.env.PORTICO_E2E_ANVIL_PORT = String(await freePort())
}
const serverPort = process.env.PORTICO_E2E_PORT
const anvilPort = process.env.PORTICO_E2E_ANVIL_PORT

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  forbidOnly: !!process.env.CI,
  // Two workers, one per core: the tests keep Chromium busy. Four were tried and took longer
  // (10.4 min against 8.7) with tests running past their time.
  workers: process.env.CI ? 2 : 1,
  // On CI a failed test runs once more and, if it then passes, is reported as flaky by name (the
  // line reporter's summary) rather than failing the run; locally every failure stands.
  retries: process.env.CI ? 1 : 0,
  // A run ends with its slowest spec files and tests (support/slowest-specs.ts).
  reporter: [[process.env.CI ? 'line' : 'list'], ['./support/slowest-specs.ts']],
  use: {
    baseURL: `http://127.0.0.1:${serverPort}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      // A real local chain for the wallet tests: the test wallet reads from
      // it and the server's RPC gateway forwards chain 31337 to it.
      command: `node_modules/.bin/anvil --host 127.0.0.1 --port ${anvilPort} --silent`,
      cwd: repoRoot,
      port: Number(anvilPort),
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5000 },
      timeout: 30_000,
    },
    {
      command: 'node packages/server/dist/cli.js',
      cwd: repoRoot,
      env: {
        HOST: '127.0.0.1',
        PORT: serverPort,
        WEB_DIR: path.join(repoRoot, 'apps/web/dist-e2e'),
        DATA_DIR: process.env.PORTICO_E2E_DATA_DIR!,
        LOG_LEVEL: 'warn',
        RPC_URL_31337: `http://127.0.0.1:${anvilPort}`,
        ALLOWED_CHAIN_IDS: '1,31337',
        // The test wallet's first anvil account administers the analytics; the second does not.
        ADMIN_ADDRESSES: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        // The third may look at the admin console but change nothing.
        VIEWER_ADDRESSES: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
        // A contract-event sync for the Recent activity section (support/sync-module.mjs).
        FUNCTIONS_MODULE: path.join(repoRoot, 'e2e/support/sync-module.mjs'),
        // Cloud code with a job the console starts (support/cloud/main.js).
        CLOUD_CODE: path.join(repoRoot, 'e2e/support/cloud'),
        // The Web3 API for a v1 React app (react-moralis.spec.ts): v1's default chain name read
        // as the local chain, and the address index on it, polling often so that a test's new
        // transfers show in a moment.
        WEB3API_CHAINS: 'eth:31337',
        ADDRESS_INDEX_CHAINS: '31337',
        ADDRESS_INDEX_POLL_MS: '200',
      },
      wait: { stdout: /running at http:\/\/127\.0\.0\.1:\d+/ },
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5000 },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
})
