import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anvilAccount, startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { freePort } from '@portico/test-kit/ports'
import { startServer, type ServerProcess } from '../packages/server/test/server-process.ts'

// The SDK and the React bindings as a third-party project gets them: `npm pack` of both
// packages, installed from the tarballs into a scratch project outside the repo, then used there
// with plain Node 20 (no loader), plain `tsc` and esbuild, against a real server and anvil. The
// README's examples are the code that runs.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name)
const vendorPackages = ['@walletconnect/ethereum-provider', 'magic-sdk', '@web3auth/modal']

/** The code block after `<!-- packaging-test: name -->` in the README. */
function readmeExample(name: string): string {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8')
  const match = new RegExp(`<!-- packaging-test: ${name} -->\\n\`\`\`js\\n([\\s\\S]*?)\`\`\``).exec(
    readme,
  )
  if (!match) throw new Error(`README has no "${name}" example`)
  return match[1]!
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 240_000,
  })
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`,
    )
  }
  return result.stdout
}

let scratch: string
let anvil: Anvil
let server: ServerProcess
let serverUrl: string
/** Installed packages and their size, for a project with the core SDK only. */
let footprint: { packages: number; megabytes: number }

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-consumer-'))
  const tarballs = path.join(scratch, 'tarballs')
  fs.mkdirSync(tarballs)
  // `prepack` builds each package's dist/ first.
  const packOutput = run(
    'npm',
    [
      'pack',
      '--json',
      '--pack-destination',
      tarballs,
      '-w',
      '@portico/sdk',
      '-w',
      '@portico/react',
    ],
    root,
  )
  // The build scripts print before npm's JSON list of what it packed.
  const packed = JSON.parse(packOutput.slice(packOutput.search(/^\[/m))) as { filename: string }[]
  const [sdk, react] = packed.map((p) => path.join(tarballs, path.basename(p.filename)))
  const project = path.join(scratch, 'app')
  fs.mkdirSync(project)
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      dependencies: { '@portico/sdk': `file:${sdk}`, viem: '^2.57.0' },
    }),
  )
  const install = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error']
  run('npm', install, project)
  const lock = JSON.parse(fs.readFileSync(path.join(project, 'package-lock.json'), 'utf8'))
  const bytes = Number(
    execFileSync('du', ['-sb', path.join(project, 'node_modules')], { encoding: 'utf8' }).split(
      '\t',
    )[0],
  )
  footprint = {
    packages: Object.keys(lock.packages).length - 1,
    megabytes: Math.round(bytes / 1e6),
  }
  console.log(`core SDK install: ${footprint.packages} packages, ${footprint.megabytes} MB`)
  // Then the React bindings, with their peers, for the type check.
  run('npm', [...install, `file:${react}`, 'react@^19', '@types/react@^19'], project)

  const port = await freePort()
  anvil = await startAnvil()
  server = startServer({
    PORT: String(port),
    DATA_DIR: path.join(scratch, 'data'),
    RPC_URL_31337: anvil.url,
  })
  serverUrl = await server.url
}, 300_000)

afterAll(async () => {
  server?.child.kill('SIGTERM')
  await server?.exited
  await anvil?.stop()
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true })
})

const project = () => path.join(scratch, 'app')

describe('the packed SDK in a project of its own', () => {
  it('installing the core pulls no vendor wallet SDK', () => {
    for (const name of vendorPackages) {
      expect(fs.existsSync(path.join(project(), 'node_modules', name))).toBe(false)
    }
    const tarball = fs.readdirSync(path.join(scratch, 'tarballs')).find((f) => f.includes('sdk'))!
    const listed = run('tar', ['-tzf', path.join(scratch, 'tarballs', tarball)], scratch)
    expect(listed).toMatch(/package\/dist\/index\.js/)
    expect(listed).toMatch(/package\/dist\/index\.d\.ts/)
    expect(listed).not.toMatch(/package\/src\/|\.test\./)
    expect(footprint.packages).toBeLessThan(100)
  })

  it("runs the README's Node example with plain node: signs in with a key and keeps the session", () => {
    fs.writeFileSync(path.join(project(), 'node-example.mjs'), readmeExample('node'))
    const output = run('node', ['node-example.mjs'], project(), {
      PORTICO_URL: serverUrl,
      PRIVATE_KEY: anvilAccount.privateKey,
      NODE_URL: anvil.url,
    })
    const result = JSON.parse(output.trim().split('\n').at(-1)!)
    expect(result.user).toBe(anvilAccount.address)
    expect(result.notes).toBe(1)
    expect(Number(result.block)).toBeGreaterThanOrEqual(0)
  })

  it('imports and requires each entry point in Node; conversions, encoding and errors work', () => {
    const script = `
      import assert from 'node:assert/strict'
      import { createRequire } from 'node:module'
      import * as sdk from '@portico/sdk'
      import { createBackendClient, connectNode, encode, fromDecimalToHex, BaseError, InvalidUrlError, NodeConfigMissingError, NoResponseError } from '@portico/sdk'
      for (const entry of ['errors', 'rpc', 'auth', 'backend', 'events', 'version', 'wallet', 'portico', 'wallet/walletconnect', 'wallet/magic', 'wallet/web3auth']) {
        const mod = await import('@portico/sdk/' + entry)
        assert.ok(Object.keys(mod).length > 0, entry)
      }
      const required = createRequire(import.meta.url)('@portico/sdk')
      assert.equal(required.fromDecimalToHex(255), '0xff')
      assert.equal(fromDecimalToHex(255), '0xff')
      assert.deepEqual(encode(new Date(0)), { __type: 'Date', iso: '1970-01-01T00:00:00.000Z' })
      assert.throws(() => createBackendClient({ serverUrl: '/', appId: 'a' }), (e) => e instanceof InvalidUrlError && e instanceof BaseError && /absolute http/.test(e.message))
      assert.throws(() => connectNode({ chainId: 1 }), NodeConfigMissingError)
      const dead = connectNode({ chainId: 1, urls: { 1: 'http://127.0.0.1:9' }, retryCount: 0 })
      await assert.rejects(dead.getBlockNumber(), (e) => e.walk((c) => c instanceof NoResponseError) !== null)
      const client = createBackendClient({ serverUrl: process.env.PORTICO_URL, appId: 'portico' })
      const health = await client.request('GET', '/api/health')
      console.log(JSON.stringify({ exports: Object.keys(sdk).length, health: health.status }))
    `
    fs.writeFileSync(path.join(project(), 'entries.mjs'), script)
    const output = run('node', ['entries.mjs'], project(), { PORTICO_URL: serverUrl })
    expect(JSON.parse(output.trim().split('\n').at(-1)!)).toMatchObject({ health: 'ok' })
  })

  it('type-checks with the strict configuration `tsc --init` writes', () => {
    const dir = project()
    fs.rmSync(path.join(dir, 'tsconfig.json'), { force: true })
    run(bin('tsc'), ['--init'], dir)
    fs.writeFileSync(
      path.join(dir, 'check.ts'),
      `
      import { createBackendClient, saveAll, BatchError, type SavedObject } from '@portico/sdk'
      import { connectNode } from '@portico/sdk/rpc'
      import { useAuth, PorticoProvider } from '@portico/react'
      const client = createBackendClient({ serverUrl: 'https://app.example', appId: 'portico' })
      export async function save(): Promise<SavedObject<{ n: number }>[]> {
        try {
          return await saveAll(client, [{ className: 'Item', data: { n: 1 } }])
        } catch (error) {
          if (error instanceof BatchError) console.log(error.failed.map((f) => f.error.code))
          throw error
        }
      }
      export const block: Promise<bigint> = connectNode({ chainId: 1, urls: { 1: 'https://node.example' } }).getBlockNumber()
      export { useAuth, PorticoProvider }
      `,
    )
    run(bin('tsc'), ['-p', '.', '--noEmit'], dir)
    // A mistake is caught against the shipped declarations.
    fs.writeFileSync(
      path.join(dir, 'wrong.ts'),
      `import { fromDecimalToHex } from '@portico/sdk'\nexport const n: number = fromDecimalToHex(1)\n`,
    )
    const failed = spawnSync(bin('tsc'), ['-p', '.', '--noEmit'], {
      cwd: dir,
      encoding: 'utf8',
    })
    fs.rmSync(path.join(dir, 'wrong.ts'))
    expect(failed.status).not.toBe(0)
    expect(failed.stdout).toMatch(/wrong\.ts.*TS2322/)
  })

  it("bundles the README's browser example with esbuild, without vendor SDKs it does not use", () => {
    const dir = project()
    fs.writeFileSync(path.join(dir, 'browser-example.js'), readmeExample('browser'))
    run(
      bin('esbuild'),
      [
        'browser-example.js',
        '--bundle',
        '--format=esm',
        '--platform=browser',
        '--splitting',
        '--outdir=out',
        '--external:@walletconnect/ethereum-provider',
      ],
      dir,
    )
    const files = fs.readdirSync(path.join(dir, 'out'))
    const code = files.map((f) => fs.readFileSync(path.join(dir, 'out', f), 'utf8')).join('\n')
    expect(code).toMatch(/createPortico|portico\.wallet|Browser wallet/)
    expect(code).not.toMatch(/magic-sdk|@web3auth\/modal/)
  })
})
