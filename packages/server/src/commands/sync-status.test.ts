import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { startAnvil } from '@portico/test-kit/anvil'
import { listeningApp } from '../../test/compat.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployEmitter } from '../../test/sync.ts'
import { syncCommand } from './sync-status.ts'
import { UsageError } from './database.ts'

// `portico sync status` against a running server.

const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/sync-module.mjs',
)
const anvil = await startAnvil()
afterAll(() => anvil.stop())

it('prints each sync of a running server, and says so when none answers', async () => {
  const emitter = await deployEmitter(anvil.url)
  process.env.SYNC_ADDRESS = emitter.address
  const server = await listeningApp('pglite', {
    rpc: rpcTestConfig({ 31337: [anvil.url] }),
    functionsModule: fixture,
  })
  const lines: string[] = []
  await expect
    .poll(async () => {
      lines.length = 0
      await syncCommand(['status', '--url', server.origin], { print: (line) => lines.push(line) })
      return lines.join('\n')
    })
    .toMatch(/^emitter → Activity on chain 31337: following the head \(block \d+\)$/)
  await expect(
    syncCommand(['status', '--url', 'http://127.0.0.1:9'], { print: () => {} }),
  ).rejects.toThrow('No Portico server answers at http://127.0.0.1:9')
  await expect(syncCommand(['nope'])).rejects.toBeInstanceOf(UsageError)
})
