import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { listeningApp } from '../../test/compat.ts'

// The README's "Coming from Moralis v1 or Parse" example, run as written (a Node process with
// the real moralis-v1 package) against a listening server.

const here = path.dirname(fileURLToPath(import.meta.url))
const repoRoot = path.resolve(here, '../../../..')
const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8')
const example = /<!-- compat-test: moralis-v1 -->\n```js\n([\s\S]*?)```/.exec(readme)?.[1]
// Next to the packages, so that `moralis-v1` resolves from the workspace's node_modules.
const dir = fs.mkdtempSync(path.join(repoRoot, 'node_modules', '.readme-example-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('the README example for Moralis v1 apps', () => {
  it('runs against the server and prints what it saved and found', async () => {
    expect(example).toBeDefined()
    const file = path.join(dir, 'example.mjs')
    fs.writeFileSync(file, example!)
    const server = await listeningApp('pglite')
    const privateKey = generatePrivateKey()
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--require', path.resolve(here, '../../test/fixtures/moralis-offline.cjs'), file],
      {
        cwd: dir,
        env: {
          ...process.env,
          PORTICO_URL: server.origin,
          NODE_URL: 'http://127.0.0.1:9',
          PRIVATE_KEY: privateKey,
        },
      },
    )
    const printed = JSON.parse(stdout.trim().split('\n').pop()!) as {
      user: string
      found: number[]
    }
    expect(printed).toEqual({
      user: privateKeyToAccount(privateKey).address.toLowerCase(),
      found: [15],
    })
  })
})
