// The Parse JS SDK's own integration suite (its `integration/test/*Test.js` jasmine specs), run
// against a stock Parse Server 9 and against Portico's Parse-compatible mount, both on the
// PostgreSQL that PG_URL names (each in its own database, made here), both on
// http://localhost:1337/parse with app id `integration`. Prints passed / failed / skipped / not
// applicable per spec file and server, then totals. Not part of `npm test`.
//   PG_URL=postgres://postgres@127.0.0.1:55435 node bench/parse-sdk-suite.mjs <sdk git dir> [parse|portico|both] [File.js,…]
// SUITE_SIGNED_IN=1: on Portico each spec starts signed in with a new wallet (Portico refuses
// signed-out creates unless a class lets everyone create, on purpose; this shows what the suite
// finds beyond that).
// SUITE_TIMEOUT_MS: each spec's time limit (20 s, the suite's; specs that fail without calling
// `done` wait for it). SUITE_SHOW_FAILURES=1 lists failures; SUITE_JSON=<file> keeps the results.
// <sdk git dir> is a clone of github.com/parse-community/Parse-SDK-JS (read with `git show HEAD:…`).
// The specs are copied to a temporary folder with `require('../../node')` pointed at the `parse`
// package installed here. Stock Parse Server runs in the jasmine process as the SDK's own helper
// starts it (its options, on PostgreSQL). For Portico a small helper replaces it: the server runs
// as its own process (this file with `--portico`), and between specs the helper empties its
// tables and tells the server to forget what it remembers, instead of restarting it.
// Not applicable: specs that need Parse Server's in-process objects or another configuration
// (`reconfigureServer` with options, `parseServer.…`); ParseDistTest (a browser build and
// puppeteer) is left out for both.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PORTICO_MASTER_KEY = 'notsosecret-portico-suite' // Portico asks for at least 16 characters
const pgUrl = (/** @type {string} */ db) =>
  `${process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:55435'}/${db}`

async function main() {
  const [gitDir, which = 'both', only] = process.argv.slice(2)
  if (!gitDir) throw new Error('usage: parse-sdk-suite.mjs <sdk git dir> [parse|portico|both]')
  /** @type {Results} */
  const results = {}
  for (const target of which === 'both' ? ['parse', 'portico'] : [which]) {
    results[target] = await runSuite(target, gitDir, only?.split(','))
  }
  report(results)
}

/**
 * @typedef {{ file: string, name: string, outcome: 'passed' | 'failed' | 'skipped' | 'na', message?: string }} Spec
 * @typedef {Record<string, Spec[]>} Results
 */

/**
 * Copies the suite for `target` into a temporary folder and runs jasmine on it.
 * @param {string} target
 * @param {string} gitDir
 * @param {string[] | undefined} only
 * @returns {Promise<Spec[]>}
 */
async function runSuite(target, gitDir, only) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `parse-sdk-suite-${target}-`))
  const git = (/** @type {string[]} */ ...args) =>
    execFileSync('git', [`--git-dir=${gitDir}`, ...args], { encoding: 'utf8' })
  const files = git('ls-tree', '-r', '--name-only', 'HEAD', 'integration/test/')
    .split('\n')
    .filter(
      (f) => f.endsWith('.js') && !f.endsWith('/helper.js') && !f.endsWith('ParseDistTest.js'),
    )
    .filter((f) => !only || !f.endsWith('Test.js') || only.includes(path.basename(f)))
  for (const file of files) {
    // The SDK's internals (`lib/…`) by their path: the package's exports do not list them.
    let text = git('show', `HEAD:${file}`)
      .replace(/(['`])\.\.\/\.\.\/lib\//g, `$1${path.join(root, 'node_modules/parse/lib')}/`)
      .replace(/(['`])\.\.\/\.\.\//g, '$1parse/')
      // The SDK's repository builds its controllers as CommonJS; the package's are ES modules.
      .replaceAll('require(controller.file)', '((m) => m.default ?? m)(require(controller.file))')
    // A spec file written for an older SDK that no longer loads (XMLHttpRequest hooks) counts as
    // one not applicable spec instead of stopping the run.
    if (file.endsWith('Test.js'))
      text = `try {\n${text}\n} catch (e) { describe('${path.basename(file)}', () => it('loads', () => {
        throw new Error('not applicable: does not load with this SDK: ' + e.message) })) }\n`
    if (target === 'portico') text = text.replaceAll("'notsosecret'", `'${PORTICO_MASTER_KEY}'`)
    const to = path.join(dir, path.relative('integration/test', file))
    fs.mkdirSync(path.dirname(to), { recursive: true })
    fs.writeFileSync(to, text)
  }
  fs.writeFileSync(path.join(dir, 'helper.js'), target === 'parse' ? parseHelper : porticoHelper)
  const database = `${target}_sdk_suite`
  await recreateDatabase(database)
  const out = path.join(dir, 'results.json')
  const env = {
    ...process.env,
    NODE_PATH: path.join(root, 'node_modules'),
    TESTING: '1',
    SUITE_RESULTS: out,
    SUITE_DATABASE: pgUrl(database),
  }
  let server
  if (target === 'portico') server = await startPortico(dir, env)
  const config = path.join(dir, 'jasmine.json')
  fs.writeFileSync(
    config,
    JSON.stringify({
      spec_dir: '.',
      helpers: ['helper.js'],
      spec_files: ['*Test.js'],
      random: false,
    }),
  )
  const jasmine = path.join(root, 'node_modules/jasmine/bin/jasmine.js')
  await new Promise((resolve) => {
    const child = spawn(process.execPath, [jasmine, `--config=${config}`], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    child.on('exit', resolve)
  })
  if (server) await new Promise((resolve) => (server.on('exit', resolve), server.kill('SIGTERM')))
  return JSON.parse(fs.readFileSync(out, 'utf8'))
}

/** @param {string} name */
async function recreateDatabase(name) {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: pgUrl('postgres') })
  await client.connect()
  await client.query(`drop database if exists ${name} with (force)`)
  await client.query(`create database ${name}`)
  await client.end()
}

/** Portico as its own process, with the settings the suite needs; resolves once it listens. */
/**
 * @param {string} dir
 * @param {NodeJS.ProcessEnv} env
 */
async function startPortico(dir, env) {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', fileURLToPath(import.meta.url), '--portico', dir],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  await new Promise((/** @type {(value?: unknown) => void} */ resolve, reject) => {
    child.stdout.on('data', (chunk) => String(chunk).includes('listening') && resolve())
    child.on('exit', () => reject(new Error('Portico did not start')))
  })
  return child
}

/** @param {string} dir */
async function servePortico(dir) {
  const { SMTPServer } = await import('smtp-server')
  // A sink for password reset and verification mails, as the suite's mock mail adapter is.
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData: (stream, _session, done) => stream.resume().on('end', () => done()),
  })
  await new Promise((resolve) => smtp.listen(0, '127.0.0.1', () => resolve(undefined)))
  const { buildServer } = await import('../packages/server/src/app.ts')
  const { loadConfig } = await import('../packages/server/src/config/server.ts')
  const { openDatabase } = await import('../packages/server/src/db/client.ts')
  const url = process.env.SUITE_DATABASE ?? ''
  const database = await openDatabase({ kind: 'postgres', url })
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url,
    DATA_DIR: path.join(dir, 'data'),
    APP_ID: 'integration',
    MASTER_KEY: PORTICO_MASTER_KEY,
    COMPAT_MOUNT: '/parse',
    PUBLIC_ORIGINS: 'http://localhost:1337',
    CLOUD_CODE: path.join(dir, 'cloud/main.js'),
    SMTP_URL: `smtp://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (smtp.server.address()).port}`,
    MAIL_FROM: 'parse@example.com',
    AUTH_RATE_LIMIT: '100000000',
    EVENTS_RATE_LIMIT: '100000000',
    LOG_LEVEL: 'error',
  })
  const app = await buildServer({ config, database, logger: false })
  await app.listen({ host: '127.0.0.1', port: 1337 })
  console.log('listening')
  process.on('SIGTERM', async () => {
    await app.close()
    await database.close()
    smtp.close()
    process.exit(0)
  })
}

/**
 * Per spec file and server: passed / failed / skipped / not applicable, then totals.
 * @param {Results} results
 */
function report(results) {
  const targets = Object.keys(results)
  const count = (/** @type {Spec[]} */ specs) => {
    const c = { passed: 0, failed: 0, skipped: 0, na: 0 }
    for (const s of specs) c[s.outcome]++
    return c
  }
  const show = (/** @type {Record<string, number>} */ c) =>
    `${c.passed}/${c.failed}/${c.skipped}/${c.na}`.padEnd(16)
  const byFile = new Set(targets.flatMap((t) => (results[t] ?? []).map((s) => s.file)))
  console.log(`${'spec file'.padEnd(32)}${targets.map((t) => `${t} p/f/s/na`.padEnd(16)).join('')}`)
  for (const file of [...byFile].sort()) {
    const row = targets.map((t) => show(count((results[t] ?? []).filter((s) => s.file === file))))
    console.log(`${file.padEnd(32)}${row.join('')}`)
  }
  console.log(`${'total'.padEnd(32)}${targets.map((t) => show(count(results[t] ?? []))).join('')}`)
  for (const t of targets) {
    const na = (results[t] ?? []).filter((s) => s.outcome === 'na')
    if (na.length)
      console.log(`\nnot applicable on ${t}:\n${na.map((s) => `  ${s.name}`).join('\n')}`)
    const failed = (results[t] ?? []).filter((s) => s.outcome === 'failed')
    if (failed.length && process.env.SUITE_SHOW_FAILURES)
      console.log(
        `\nfailed on ${t}:\n${failed.map((s) => `  ${s.name}\n      ${s.message}`).join('\n')}`,
      )
  }
  if (process.env.SUITE_JSON) fs.writeFileSync(process.env.SUITE_JSON, JSON.stringify(results))
}

// A jasmine reporter, shared by both helpers: one line per spec into SUITE_RESULTS.
const reporter = `
const results = [];
jasmine.getEnv().addReporter({
  specDone(r) {
    const messages = r.failedExpectations.map(e => e.message);
    // Specs that reach into the XMLHttpRequest controller of older SDKs (the package's speaks fetch).
    const na = messages.some(m => m.includes('not applicable:') || m.includes('_setXHR is not a function'));
    const outcome = na ? 'na' : r.status === 'passed' ? 'passed' : r.status === 'failed' ? 'failed' : 'skipped';
    results.push({ file: require('path').basename(r.filename || '?'), name: r.fullName, outcome,
      message: (messages[0] || '').slice(0, 300) });
  },
  // A failing beforeAll / afterAll fails its specs with a pointer here: show its own message.
  suiteDone(r) {
    for (const e of r.failedExpectations) console.error('suite ' + r.fullName + ': ' + e.message);
  },
  jasmineDone(r) {
    for (const e of r.failedExpectations || []) console.error('suite: ' + e.message);
    require('fs').writeFileSync(process.env.SUITE_RESULTS, JSON.stringify(results)); },
});
jasmine.DEFAULT_TIMEOUT_INTERVAL = Number(process.env.SUITE_TIMEOUT_MS || 20000);
require('dns').setDefaultResultOrder('ipv4first');
const Parse = require('parse/node');
const twitterAuthData = { id: '1506726799266430985', consumer_key: 'k', consumer_secret: 's',
  auth_token: 't', auth_token_secret: 'ts' };
global.DiffObject = Parse.Object.extend('DiffObject');
global.Item = Parse.Object.extend('Item');
global.Parent = Parse.Object.extend('Parent');
global.Child = Parse.Object.extend('Child');
global.Container = Parse.Object.extend('Container');
global.TestPoint = Parse.Object.extend('TestPoint');
global.TestObject = Parse.Object.extend('TestObject');
module.exports = { twitterAuthData };
`

// The SDK's own helper, as it starts Parse Server (its options, on PostgreSQL; no browser build).
const parseHelper = `${reporter}
const { default: ParseServer, TestUtils } = require('parse-server');
// Parse Server 9 reads the route's params from \`layer.params\`, which router 2.3 (what npm
// installs beside it now) no longer sets: without this every batch fails with 111.
const Layer = require('router/lib/layer');
const layerMatch = Layer.prototype.match;
Layer.prototype.match = function (path) {
  const found = layerMatch.call(this, path);
  if (found) this.params = found.params;
  return found;
};
// Parse Server keeps files in MongoDB's GridFS unless told otherwise: in memory here.
const files = new Map();
const filesAdapter = {
  createFile: async (name, data) => { files.set(name, Buffer.from(data)); },
  deleteFile: async name => { if (!files.delete(name)) throw new Error('no such file'); },
  getFileData: async name => { if (!files.has(name)) throw new Error('no such file'); return files.get(name); },
  getFileLocation: (config, name) => config.mount + '/files/' + config.applicationId + '/' + encodeURIComponent(name),
};
const CustomAuth = require('./CustomAuth');
const MockEmailAdapterWithOptions = require('./support/MockEmailAdapterWithOptions');
const serverURL = 'http://localhost:1337/parse';
let didChangeConfiguration = false;
const defaultConfiguration = {
  databaseURI: process.env.SUITE_DATABASE, appId: 'integration', masterKey: 'notsosecret', serverURL,
  cloud: __dirname + '/cloud/main.js', filesAdapter,
  liveQuery: { classNames: ['TestObject', 'DiffObject'] }, startLiveQueryServer: true,
  auth: { myAuth: { module: CustomAuth, option1: 'hello', option2: 'world' },
    facebook: { appIds: 'test' },
    twitter: { consumer_key: 'k', consumer_secret: 's', validateAuthData: () => {} } },
  verbose: false, silent: true, logLevel: 'error',
  // The suite's Android keys no longer start the push adapter of Parse Server 9: a no-op one.
  push: { adapter: { send: async () => [], getValidPushTypes: () => ['ios', 'android'] } },
  idempotencyOptions: { paths: ['functions/CloudFunctionIdempotency', 'jobs/CloudJob1', 'classes/IdempotentTest'], ttl: 120 },
  fileUpload: { enableForPublic: true, enableForAnonymousUser: true, enableForAuthenticatedUser: true },
  revokeSessionOnPasswordReset: false, allowCustomObjectId: false, allowClientClassCreation: true,
  emailAdapter: MockEmailAdapterWithOptions({ fromAddress: 'parse@example.com', apiKey: 'k', domain: 'd' }),
};
let parseServer;
const reconfigureServer = async (changed = {}) => {
  if (parseServer) {
    await parseServer.handleShutdown();
    await new Promise(resolve => parseServer.server.close(resolve));
    parseServer = undefined;
  }
  didChangeConfiguration = Object.keys(changed).length !== 0;
  parseServer = await ParseServer.startApp({ ...defaultConfiguration, ...changed, mountPath: '/parse', port: 1337 });
  parseServer.expressApp.get('/clear/:fast', (req, res) =>
    TestUtils.destroyAllDataPermanently(req.params.fast).then(() => res.send('{}')));
  return parseServer;
};
global.reconfigureServer = reconfigureServer;
beforeAll(async () => {
  await reconfigureServer();
  Parse.initialize('integration');
  Parse.CoreManager.set('SERVER_URL', serverURL);
  Parse.CoreManager.set('MASTER_KEY', 'notsosecret');
}, 60000); // starting Parse Server on a busy machine can outlast a short spec time limit
afterEach(async () => {
  await Parse.User.logOut();
  Parse.Storage._clear();
  await TestUtils.destroyAllDataPermanently(true);
  // As Parse Server's own tests do: its tables are gone on PostgreSQL, so is what it knew of them.
  require('parse-server/lib/Adapters/Cache/SchemaCache').default.clear();
  await parseServer.config.databaseController.performInitialization();
  if (didChangeConfiguration) await reconfigureServer();
});
`

// Portico's stand-in: the server already runs; clearing empties its tables (and /clear does too).
const porticoHelper = `${reporter}
const pg = require('pg');
const notApplicable = what => { throw new Error('not applicable: ' + what); };
const internals = new Proxy({}, { get: (_t, key) =>
  key === 'then' ? undefined : notApplicable('Parse Server internals (parseServer.' + String(key) + ')') });
global.reconfigureServer = async (changed = {}) => {
  if (Object.keys(changed).length) notApplicable('Parse Server options ' + Object.keys(changed).join(', '));
  return internals;
};
const db = new pg.Pool({ connectionString: process.env.SUITE_DATABASE, max: 1 });
let tables;
async function clear() {
  // Every table but the migrations' and the server's own keys; then every cache is dropped.
  tables ??= (await db.query("select tablename from pg_tables where schemaname = 'public'")).rows
    .map(r => r.tablename).filter(t => !/migration|secret|key|setting/.test(t));
  // A request the spec left running may hold some of the tables: a deadlock is tried again.
  for (let attempt = 1; ; attempt++) {
    try {
      await db.query('truncate ' + tables.map(t => '"' + t + '"').join(', ') + ' cascade');
      break;
    } catch (e) {
      if (e.code !== '40P01' || attempt === 5) throw e;
    }
  }
  // The master key's own user row, which the server makes once at start and owns what the
  // master key creates (jobs' runs, objects saved with it).
  await db.query("insert into users (id, address) values ('portico-master', '0x0000000000000000000000000000000000000002') on conflict do nothing");
  await db.query("select pg_notify(c, 'x') from unnest(array['portico_class_permissions_changed', 'portico_roles_changed', 'portico_sessions_revoked']) as c");
}
global.__clearPortico = clear;
beforeAll(async () => {
  Parse.initialize('integration');
  Parse.CoreManager.set('SERVER_URL', 'http://localhost:1337/parse');
  Parse.CoreManager.set('MASTER_KEY', '${PORTICO_MASTER_KEY}');
  await clear();
});
// SUITE_SIGNED_IN=1: each spec starts signed in with a new wallet, to see past Portico's one
// deliberate difference (a signed-out client writes nothing).
if (process.env.SUITE_SIGNED_IN === '1')
  beforeEach(async () => {
    const { generatePrivateKey, privateKeyToAccount } = require('viem/accounts');
    const account = privateKeyToAccount(generatePrivateKey());
    // A Sign-In with Ethereum message from the server, as moralis-v1's authenticate() asks for.
    const { message: data } = await Parse.Cloud.run('requestMessage', { address: account.address });
    const signature = await account.signMessage({ message: data });
    Parse.User.enableUnsafeCurrentUser();
    await Parse.User.logInWith('moralisEth', { authData: { id: account.address.toLowerCase(), signature, data } });
  });
afterEach(async () => {
  await Parse.User.logOut().catch(() => {});
  Parse.Storage._clear();
  await clear();
});
afterAll(() => db.end());
`

// Last, once the helpers' texts above are defined.
if (process.argv[2] === '--portico') await servePortico(process.argv[3] ?? '')
else await main()
