import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { getAddress } from 'viem'
import { startAnvil } from '@portico/test-kit/anvil'
import { testApp } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'
import { deployEmitter } from '../../test/sync.ts'

// The README's "Sync contract events" module, used as written.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')
const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8')
const example = /<!-- sync-test: module -->\n```js\n([\s\S]*?)```/.exec(readme)?.[1]
// Inside the workspace, so that `viem` resolves from its node_modules.
const dir = fs.mkdtempSync(path.join(repoRoot, 'node_modules', '.readme-sync-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

it('fills the declared class with the contract transfers', async () => {
  expect(example).toBeDefined()
  const file = path.join(dir, 'functions.mjs')
  fs.writeFileSync(file, example!)
  const anvil = await startAnvil()
  try {
    const emitter = await deployEmitter(anvil.url)
    const to = getAddress('0x00000000000000000000000000000000000000dd')
    await emitter.send('mint', [to, 10n ** 30n])
    process.env.TOKEN_ADDRESS = emitter.address
    const { app } = await testApp('pglite', {
      rpc: rpcTestConfig({ 31337: [anvil.url] }),
      functionsModule: file,
    })
    const read = async () =>
      (await app.inject('/api/classes/Transfer')).json<{
        results: { data: Record<string, unknown> }[]
      }>().results
    await expect.poll(async () => (await read()).length, { timeout: 15_000 }).toBe(1)
    expect((await read())[0]!.data).toMatchObject({
      to,
      value: (10n ** 30n).toString(),
      event: 'Transfer',
      confirmed: true,
    })
  } finally {
    await anvil.stop()
  }
})
