import { expect, test, type Page } from '@playwright/test'
import { anvilUrl } from './ports.ts'
import { installTestWallet } from './wallet/test-wallet.ts'
import { authStatus, openConnectDialog, recordRequests } from './wallet/journey.ts'

// The hosted vendor connectors: their SDKs load only when chosen, they fail with the
// catalogue's words, and the vendors' hosts are stubbed at the network boundary so no request
// leaves 127.0.0.1. The e2e build sets a WalletConnect project id (package.json test:e2e) and no
// Web3Auth client id or Magic key, so only WalletConnect is offered.

const vendorChunk = /\/assets\/(wallet-connect-sdk|magic-sdk|web3-auth-sdk)-[^/]+\.js$/

/**
 * Answers every request for a host other than 127.0.0.1 from a failing local stub (HTTP 503, and
 * WebSockets closed at once): the vendor's relay is "unreachable". Returns the URLs it stopped.
 */
async function stubForeignHosts(page: Page): Promise<string[]> {
  const stopped: string[] = []
  const foreign = (url: URL) => url.hostname !== '127.0.0.1'
  await page.route(foreign, (route) => {
    stopped.push(route.request().url())
    return route.fulfill({ status: 503, body: 'relay unreachable (test stub)' })
  })
  await page.routeWebSocket(foreign, (ws) => {
    stopped.push(ws.url())
    ws.close({ code: 1011, reason: 'relay unreachable (test stub)' })
  })
  return stopped
}

test('a production build offers no vendor the site has not set up, and names no setting', async ({
  page,
}) => {
  const requests = recordRequests(page)
  await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/')
  const dialog = await openConnectDialog(page)
  // The e2e build sets a WalletConnect project id, and neither a Magic key nor a Web3Auth id.
  await expect(dialog.getByRole('heading', { name: 'Phone wallet' })).toBeVisible()
  await expect(dialog.getByRole('heading', { name: 'Social login' })).toHaveCount(0)
  await expect(dialog.getByRole('heading', { name: 'Email link' })).toHaveCount(0)
  await expect(dialog).not.toContainText('VITE_')
  await expect(dialog).not.toContainText('Not configured')
  expect(requests.scripts().filter((path) => vendorChunk.test(path))).toEqual([])
  expect(requests.foreign()).toEqual([])
})

test('WalletConnect with its relay unreachable shows the catalogue error; its SDK loaded only when chosen; nothing left 127.0.0.1', async ({
  page,
}) => {
  const requests = recordRequests(page)
  const stopped = await stubForeignHosts(page)
  await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/')
  const dialog = await openConnectDialog(page)
  await expect(dialog.getByRole('button', { name: 'WalletConnect (QR code)' })).toBeVisible()
  // The wallet stack is loaded (the dialog lists wallets), the vendor SDKs are not.
  expect(requests.scripts().some((path) => /create-wallet/.test(path))).toBe(true)
  expect(requests.scripts().filter((path) => vendorChunk.test(path))).toEqual([])
  expect(requests.foreign()).toEqual([])

  await dialog.getByRole('button', { name: 'WalletConnect (QR code)' }).click()
  // The relay never answers: the connector gives up after its relay time-out (15 s).
  const alert = dialog.getByRole('alert')
  await expect(alert).toContainText(
    'Could not connect via WalletConnect, the relay server could not be reached',
    { timeout: 30_000 },
  )
  await expect(alert).toContainText('Check your internet connection')
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'error')

  const vendorScripts = requests.scripts().filter((path) => vendorChunk.test(path))
  expect(vendorScripts.some((path) => path.includes('wallet-connect-sdk'))).toBe(true)
  expect(vendorScripts.filter((path) => !path.includes('wallet-connect-sdk'))).toEqual([])
  // Every request for another host was answered by the local stub: none reached the network.
  expect(requests.foreign().filter((url) => !stopped.includes(url))).toEqual([])
})
