import http from 'node:http'
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { expect, test, type Locator } from '@playwright/test'
import { build } from 'esbuild'
import {
  createTestClient,
  createWalletClient,
  getAddress,
  http as viemHttp,
  parseEther,
  publicActions,
  type Abi,
  type Hex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import {
  nft721Abi,
  nft721Bytecode,
  token20Abi,
  token20Bytecode,
} from '@portico/test-kit/wallet-tokens'
import { anvilUrl, freePort } from './ports.ts'
import { installTestWallet } from './wallet/test-wallet.ts'

// A Moralis v1 React app, unchanged, on another origin: the real react-moralis hooks over the
// real moralis-v1 browser bundle, pointed at Portico's compatibility mount. What its data hooks
// show is what the chain holds, for an address looked up before sign-in and for the account
// after it; a malformed call shows the server's error.

const require = createRequire(import.meta.url)
const moralisBundle = fs.readFileSync(require.resolve('moralis-v1/dist/moralis.min.js'))

let dapp: http.Server
let dappOrigin: string
let appBundle: string
let settings: string

// Fresh contracts and a fresh address on the shared chain, so what is asserted is exact.
const holder = privateKeyToAccount(generatePrivateKey()).address
const deployer = privateKeyToAccount(generatePrivateKey())

async function deployTokens() {
  const chain = createWalletClient({
    account: deployer,
    chain: foundry,
    transport: viemHttp(anvilUrl()),
  }).extend(publicActions)
  const node = createTestClient({ mode: 'anvil', chain: foundry, transport: viemHttp(anvilUrl()) })
  await node.setBalance({ address: deployer.address, value: parseEther('10') })
  const deploy = async (abi: Abi, bytecode: Hex) => {
    const hash = await chain.deployContract({ abi, bytecode })
    return getAddress((await chain.waitForTransactionReceipt({ hash })).contractAddress!)
  }
  const send = async (address: Hex, abi: Abi, functionName: string, args: unknown[]) => {
    const hash = await chain.writeContract({ address, abi, functionName, args } as never)
    await chain.waitForTransactionReceipt({ hash })
  }
  return { chain, node, deploy, send }
}

test.beforeAll(async () => {
  // The page's React, bundled as a v1 app's build would; moralis-v1 is the browser bundle's
  // global, as the page loads it from its own script tag.
  const built = await build({
    entryPoints: [path.join(import.meta.dirname, 'support/react-moralis-app.tsx')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
    plugins: [
      {
        name: 'moralis-global',
        setup(esbuild) {
          esbuild.onResolve({ filter: /^moralis-v1$/ }, () => ({
            path: 'moralis-v1',
            namespace: 'global',
          }))
          esbuild.onLoad({ filter: /.*/, namespace: 'global' }, () => ({
            contents: 'module.exports = window.Moralis',
          }))
        },
      },
    ],
  })
  appBundle = built.outputFiles[0]!.text

  const port = await freePort()
  dapp = http.createServer((request, response) => {
    if (request.url === '/moralis.min.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(moralisBundle)
    } else if (request.url === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(appBundle)
    } else {
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html>
<html><head><meta charset="utf-8"><title>React v1 dApp</title></head>
<body>
  <div id="root"></div>
  <script type="application/json" id="settings">${settings}</script>
  <script src="/moralis.min.js"></script>
  <script src="/app.js"></script>
</body></html>`)
    }
  })
  await new Promise<void>((resolve) => dapp.listen(port, '127.0.0.1', resolve))
  dappOrigin = `http://127.0.0.1:${port}`
})
test.afterAll(() => new Promise<void>((resolve) => dapp?.close(() => resolve())))

/** Clicks the section's Refresh until `check` passes: the address index answers as it reads. */
async function untilIndexed(section: Locator, check: () => Promise<void>) {
  await expect(async () => {
    await section.getByRole('button', { name: 'Refresh' }).click()
    await check()
  }).toPass({ timeout: 30_000, intervals: [500] })
}

/** The NFT token ids a section lists, in text order (the index's order is not v1's promise). */
async function ids(section: Locator) {
  return (await section.getByTestId('nfts').getByRole('listitem').allTextContents()).sort()
}

test("react-moralis' data hooks show what the chain holds, before and after sign-in", async ({
  page: tab,
  baseURL,
}) => {
  test.setTimeout(90_000)
  // Only this machine: the bundle's update check (unpkg) and telemetry fail as offline.
  await tab.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort())
  const wallet = await installTestWallet(tab, { anvilUrl: anvilUrl(), mode: 'legacy' })
  // The Web3 API calls the page makes, and whether each carried a session.
  const calls = new Set<string>()
  tab.on('request', (request) => {
    const name = /\/server\/functions\/(get\w+|runContractFunction)$/.exec(request.url())?.[1]
    if (!name || ['getPluginSpecs', 'getServerTime'].includes(name)) return
    const body = request.postDataJSON() as { _SessionToken?: string }
    calls.add(`${name}${body._SessionToken ? ' with a session' : ''}`)
  })
  // The fourth test account: no other spec sends from it, so its balance holds still.
  const me = wallet.accounts[3]!.address

  const { chain, node, deploy, send } = await deployTokens()
  const token = await deploy(token20Abi, token20Bytecode)
  const nft = await deploy(nft721Abi, nft721Bytecode)
  await node.setBalance({ address: holder, value: 1_500_000_000_000_000_123n })
  await send(token, token20Abi, 'mint', [holder, 1_234_500_000_000_000_000_000n])
  await send(token, token20Abi, 'mint', [me, 42n])
  await send(nft, nft721Abi, 'mint', [holder, 7n])
  await send(nft, nft721Abi, 'mint', [holder, 12n])
  await send(nft, nft721Abi, 'mint', [me, 3n])

  settings = JSON.stringify({
    serverUrl: `${baseURL}/server`,
    appId: 'portico',
    holder,
    token,
  })
  await tab.goto(dappOrigin)
  await wallet.switchAccount(tab, 3)

  // Before sign-in: an address looked up.
  const lookedUp = tab.getByRole('region', { name: 'Looked up' })
  await expect(lookedUp.getByTestId('native')).toHaveText(
    String(await chain.getBalance({ address: holder })),
  )
  expect(await chain.getBalance({ address: holder })).toBe(1_500_000_000_000_000_123n)
  await untilIndexed(lookedUp, async () => {
    await expect(lookedUp.getByTestId('nft-status')).toHaveText('SYNCED', { timeout: 1000 })
    await expect(lookedUp.getByTestId('tokens').getByRole('listitem')).toHaveText(
      ['TT 1234500000000000000000'],
      { timeout: 1000 },
    )
    expect(await ids(lookedUp)).toEqual(['12', '7'])
  })
  await expect(lookedUp.getByTestId('errors')).toHaveText('')

  const reads = tab.getByRole('region', { name: 'Reads' })
  await expect(reads.getByTestId('metadata')).toHaveText('Test Token TT 18')
  await expect(reads.getByTestId('balance-of')).toHaveText('1234500000000000000000')
  await expect(reads.getByTestId('malformed')).toHaveText(/^error: .*address/)

  const web3Calls = [
    'getNativeBalance',
    'getTokenBalances',
    'getNFTs',
    'getTokenMetadata',
    'runContractFunction',
  ]
  expect([...calls].sort()).toEqual([...web3Calls].sort())
  calls.clear()

  // After sign-in: the hooks with no parameters read the account, on the wallet's chain.
  await tab.getByRole('button', { name: 'Sign in' }).click()
  await expect(tab.getByTestId('account')).toHaveText(me.toLowerCase())
  expect(wallet.signatures).toEqual(['personal_sign'])
  const mine = tab.getByRole('region', { name: 'Mine' })
  await expect(mine.getByTestId('native')).toHaveText(
    String(await chain.getBalance({ address: me })),
  )
  await untilIndexed(mine, async () => {
    await expect(mine.getByTestId('nft-status')).toHaveText('SYNCED', { timeout: 1000 })
    await expect(mine.getByTestId('tokens').getByRole('listitem')).toHaveText(['TT 42'], {
      timeout: 1000,
    })
    expect(await ids(mine)).toEqual(['3'])
  })
  await expect(mine.getByTestId('errors')).toHaveText('')
  expect([...calls]).toEqual(
    expect.arrayContaining(
      ['getNativeBalance', 'getTokenBalances', 'getNFTs'].map((name) => `${name} with a session`),
    ),
  )
})
