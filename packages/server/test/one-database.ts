import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DatabaseKind } from '../src/db/client.ts'

/**
 * The server test files that run on one database kind instead of both, and why: every
 * assertion in them is decided above the database (docs/testing.md gives the rule). A file not
 * named here runs on each kind the run has. `databaseKinds()` (helpers.ts) reads this list for
 * the file that calls it, so a file moves here, or back, without changing the file itself.
 *
 * The one kind is PostgreSQL when the run has one, else PGlite: the same tests took about half
 * the time on PostgreSQL (its work runs natively, beside the test, instead of in the test's own
 * thread), and a file that never opens PGlite also skips compiling it.
 */
export const oneDatabase: Readonly<Record<string, string>> = {
  'src/admin/access.test.ts':
    'console access is decided from the caller before the body is read or the database asked',
  'src/admin/references.test.ts':
    'the console refuses a reference that does not resolve before the write; the reads it asks run on both in admin/admin and roles/routes',
  'src/addresses/class-writes.test.ts':
    "the address classes' writes refused by who asks, before anything is written; the index's own writes run on both in addresses/index and addresses/confirmations",
  'src/admin/cloud-routes.test.ts':
    "the console's cloud-code routes: access, a job run to its end and its log, the Logs section",
  'src/auth/contract-wallet.test.ts':
    'whether a contract wallet accepts a signature is asked of the chain (ERC-1271)',
  'src/auth/sdk.test.ts':
    "the SDK's client side of sign-in, events and versions; the routes behind it run on both in auth/routes and events/routes",
  'src/compat/config.test.ts':
    'Parse Config is one ordinary object the console replaces and clients read',
  'src/compat/functions.test.ts': "the site's functions module called as v1 apps call Cloud.run",
  'src/compat/linked-wallets.test.ts':
    "moralis-v1's link and unlink calls; the link's transaction runs on both in auth/wallets",
  'src/compat/routes.test.ts': "the mount's route table and how a batch sub-request is dispatched",
  'src/http/origin-guard.test.ts': 'the cross-site guard refuses before any route runs',
  'src/roles/sdk.test.ts':
    "the SDK's role functions and aclOf; the role routes run on both in roles/routes",
  'src/rpc/routes.test.ts':
    "the gateway's forwarding, batches, failover, errors, compression and cache; its limits run on both in db/cluster/window-counter",
  'src/rpc/sdk.test.ts': "the SDK's calls through the gateway, with a key or a session",
  'src/web3api/moralis-0-0.test.ts':
    "moralis 0.0.118's Web3 API calls are answered from the chain; the Web3 API's reads of the index run on both in web3api/web3api",
  'src/sync/reorg.test.ts':
    "where a reorg begins is decided from the node's answers; dropping the rows runs on both in sync/sync and addresses/reorg",
  'src/sync/several.test.ts':
    "each sync's own node client and answers of 12 MB; the rows' writes run on both in sync/sync and db/bulk-copy",
  'src/sync/synced-class-writes.test.ts':
    "a synced class's writes refused or allowed by who asks, before anything is written",
}

const serverFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The kinds the test file `testFile` runs on, of the kinds the run has (`available`). */
export function kindsFor(testFile: string | undefined, available: DatabaseKind[]): DatabaseKind[] {
  if (!testFile) return available
  const listed = path.relative(serverFolder, testFile).split(path.sep).join('/') in oneDatabase
  return listed ? [available.includes('postgres') ? 'postgres' : 'pglite'] : available
}
