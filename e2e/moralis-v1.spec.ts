import http from 'node:http'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { expect, test } from '@playwright/test'
import { anvilUrl, freePort } from './ports.ts'
import { installTestWallet } from './wallet/test-wallet.ts'

// A Moralis v1 dApp, unchanged, on another origin: the v1 browser bundle (moralis.min.js) with
// a browser wallet, pointed at Portico's compatibility mount. It signs in with the wallet, saves
// an object, shows a live update in the page, and logs out.

const require = createRequire(import.meta.url)
const bundle = fs.readFileSync(require.resolve('moralis-v1/dist/moralis.min.js'))

const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>v1 dApp</title></head>
<body>
  <p id="who">signed out</p>
  <ul id="feed"></ul>
  <script src="/moralis.min.js"></script>
</body></html>`

let dapp: http.Server
let dappOrigin: string

test.beforeAll(async () => {
  const port = await freePort()
  dapp = http.createServer((request, response) => {
    if (request.url === '/moralis.min.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle)
    } else response.writeHead(200, { 'content-type': 'text/html' }).end(page)
  })
  await new Promise<void>((resolve) => dapp.listen(port, '127.0.0.1', resolve))
  dappOrigin = `http://127.0.0.1:${port}`
})
test.afterAll(() => new Promise<void>((resolve) => dapp.close(() => resolve())))

test('a v1 dApp on another origin signs in, saves, sees a live update and logs out', async ({
  page: tab,
  baseURL,
}) => {
  // Only this machine: the bundle's update check (unpkg) and telemetry fail as offline.
  await tab.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort())
  const wallet = await installTestWallet(tab, { anvilUrl: anvilUrl(), mode: 'legacy' })
  await tab.goto(dappOrigin)
  const serverUrl = `${baseURL}/server`

  const user = await tab.evaluate(async (url) => {
    const Moralis = (window as unknown as { Moralis: any }).Moralis // eslint-disable-line @typescript-eslint/no-explicit-any
    await Moralis.start({ serverUrl: url, appId: 'portico' })
    const signedIn = await Moralis.authenticate({ signingMessage: 'Sign in to the v1 dApp' })
    document.querySelector('#who')!.textContent = signedIn.get('ethAddress')
    // The page lists live what is posted to its board.
    const query = new Moralis.Query('Post')
    query.equalTo('board', 'main')
    const subscription = await query.subscribe()
    subscription.on('create', (post: { get(key: string): string }) => {
      const item = document.createElement('li')
      item.textContent = post.get('text')
      document.querySelector('#feed')!.append(item)
    })
    return {
      address: signedIn.get('ethAddress'),
      token: signedIn.getSessionToken(),
      id: signedIn.id,
    }
  }, serverUrl)

  expect(user.address).toBe(wallet.current().address.toLowerCase())
  expect(user.token).toMatch(/^r:/)
  expect(wallet.signatures).toEqual(['personal_sign'])
  await expect(tab.locator('#who')).toHaveText(wallet.current().address.toLowerCase())

  // The same user posts from elsewhere (their session, the REST form): the page shows it live.
  const posted = await fetch(`${serverUrl}/classes/Post`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-parse-application-id': 'portico',
      'x-parse-session-token': user.token,
    },
    body: JSON.stringify({ board: 'main', text: 'hello from another device' }),
  })
  expect(posted.status).toBe(201)
  await expect(tab.locator('#feed li')).toHaveText(['hello from another device'])

  // A save from the page itself arrives the same way.
  await tab.evaluate(async () => {
    const Moralis = (window as unknown as { Moralis: any }).Moralis // eslint-disable-line @typescript-eslint/no-explicit-any
    const Post = Moralis.Object.extend('Post')
    await new Post().save({ board: 'main', text: 'saved in the page' })
  })
  await expect(tab.locator('#feed li')).toHaveText([
    'hello from another device',
    'saved in the page',
  ])

  const after = await tab.evaluate(async () => {
    const Moralis = (window as unknown as { Moralis: any }).Moralis // eslint-disable-line @typescript-eslint/no-explicit-any
    await Moralis.User.logOut()
    return Moralis.User.current()
  })
  expect(after).toBeNull()
  // The token was revoked on the server, not just forgotten by the page.
  const me = await fetch(`${serverUrl}/users/me`, {
    headers: { 'x-parse-application-id': 'portico', 'x-parse-session-token': user.token },
  })
  expect(await me.json()).toMatchObject({ code: 209 })
})
