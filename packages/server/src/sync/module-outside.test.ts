import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { getAddress } from 'viem'
import { startAnvil } from '@portico/test-kit/anvil'
import { deployEmitter } from '../../test/sync.ts'

// The README's sync module, kept in a folder of its own outside Portico's (as a site keeps it),
// imports `viem` though that folder has no node_modules: the real CLI resolves it from Portico's.

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli.ts')
const running: ChildProcess[] = []
const folders: string[] = []
afterAll(() => {
  running.forEach((child) => child.kill('SIGKILL'))
  folders.forEach((folder) => fs.rmSync(folder, { recursive: true, force: true }))
})

describe('a site module outside Portico’s folder', () => {
  it('imports viem and syncs', async () => {
    const anvil = await startAnvil()
    try {
      const emitter = await deployEmitter(anvil.url)
      await emitter.send('mint', [getAddress('0x00000000000000000000000000000000000000ee'), 12n])
      const site = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-site-'))
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-site-data-'))
      folders.push(site, dataDir)
      fs.writeFileSync(
        path.join(site, 'functions.mjs'),
        `import { parseAbi } from 'viem'
export default function setup({ defineSync }) {
  defineSync({
    name: 'token-transfers',
    chainId: 31337,
    address: process.env.TOKEN_ADDRESS,
    abi: parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']),
    className: 'Transfer',
    startBlock: 0,
    pollMs: 100,
  })
}
`,
      )
      const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cli], {
        env: {
          ...process.env,
          PORT: '0',
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          LOG_LEVEL: 'warn',
          FUNCTIONS_MODULE: path.join(site, 'functions.mjs'),
          TOKEN_ADDRESS: emitter.address,
          RPC_URL_31337: anvil.url,
          ALLOWED_CHAIN_IDS: '31337',
        },
      })
      running.push(child)
      let output = ''
      child.stdout.on('data', (chunk) => (output += chunk))
      child.stderr.on('data', (chunk) => (output += chunk))
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = /running at (http:\/\/\S+)/.exec(output)
          if (match) resolve(match[1]!)
        })
        child.on('exit', () => reject(new Error(`exited early:\n${output}`)))
      })
      await expect
        .poll(
          async () =>
            (
              (await (await fetch(`${url}/api/classes/Transfer`)).json()) as {
                results: { data: { value: string } }[]
              }
            ).results.map((r) => r.data.value),
          { timeout: 20_000 },
        )
        .toEqual(['12'])
      expect(output).not.toContain('ERR_MODULE_NOT_FOUND')
    } finally {
      await anvil.stop()
    }
  })
})
