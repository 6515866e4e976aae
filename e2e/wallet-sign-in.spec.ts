import { expect, test, type Page } from '@playwright/test'
import { createPublicClient, formatEther, http } from 'viem'
import { seedStorage } from './helpers.ts'
import { anvilUrl } from './ports.ts'
import { installTestWallet, TEST_WALLET } from './wallet/test-wallet.ts'
import {
  authStatus,
  openConnectDialog,
  recordRequests,
  openAccountFromHeader,
} from './wallet/journey.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'

// Sign-in with a browser wallet: a real key signs, a real anvil chain answers reads,
// the real server verifies and keeps the session.

const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`

/** The session cookie the browser holds now. */
async function sessionCookie(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'portico_session')
  expect(cookie, 'session cookie').toBeDefined()
  return `${cookie!.name}=${cookie!.value}`
}

/** What the server says about a session cookie, independent of the page's own state. */
async function sessionStatus(page: Page, cookie: string): Promise<number> {
  const response = await page.request.fetch('/api/auth/session', {
    headers: { cookie },
    // Not the browser's cookie jar: exactly the cookie given.
    ignoreHTTPSErrors: true,
  })
  return response.status()
}

test('connect → sign in → Account shows address and anvil balance → reload keeps the session → sign out passes through logging_out', async ({
  page,
}) => {
  const requests = recordRequests(page)
  const wallet = await installTestWallet(page, { anvilUrl: anvilUrl() })
  const address = wallet.current().address
  await page.goto('/')
  const dialog = await openConnectDialog(page)
  const walletButton = dialog.getByRole('button', { name: TEST_WALLET.name })
  await expect(walletButton.locator('img')).toHaveAttribute('src', /^data:image\/svg\+xml/)
  await walletButton.click()

  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  await expect(authStatus(page)).toContainText(shortAddress(address))
  await expect(dialog).toBeHidden()
  expect(wallet.signatures).toEqual(['personal_sign'])

  await openAccountFromHeader(page)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
  await expect(page.getByTestId('account-address')).toHaveText(address)
  await expect(page.getByTestId('account-chain')).toHaveText('Anvil (local), chain 31337')
  const balance = await createPublicClient({ transport: http(anvilUrl()) }).getBalance({ address })
  await expect(page.getByTestId('account-balance')).toHaveText(`${formatEther(balance)} ETH`)
  await expect(page.getByRole('listitem').filter({ hasText: 'This browser' })).toBeVisible()

  await page.reload()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  await expect(page.getByTestId('account-address')).toHaveText(address)
  const cookie = await sessionCookie(page)
  expect(await sessionStatus(page, cookie)).toBe(200)

  // Hold the server's answer to the sign-out so the intermediate state can be seen.
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/api/auth/logout', async (route) => {
    await held
    await route.continue()
  })
  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'logging_out')
  await expect(authStatus(page)).toContainText('Signing out…')
  release()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()

  // The server session is gone too, not just forgotten by the page.
  expect(await sessionStatus(page, cookie)).toBe(401)
  await page.reload()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  expect(requests.foreign()).toEqual([])
})

test('the wallet rejects the signature → error with the message → retry succeeds', async ({
  page,
}) => {
  const wallet = await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/')
  await wallet.rejectNextSignature(page)
  const dialog = await openConnectDialog(page)
  await dialog.getByRole('button', { name: TEST_WALLET.name }).click()

  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'error')
  const alert = dialog.getByRole('alert')
  await expect(alert).toContainText('You declined the sign-in in your wallet')
  await expect(alert).not.toContainText('User rejected the request.')
  await expect(alert).toContainText('Nothing was signed')
  await expect(authStatus(page)).toContainText('Sign-in failed')

  await alert.getByRole('button', { name: 'Try again' }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  await expect(authStatus(page)).toContainText(shortAddress(wallet.current().address))
})

test('switching the wallet to another account signs the user out', async ({ page }) => {
  const wallet = await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/account')
  const dialog = await openConnectDialog(page)
  await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
  await expect(page.getByTestId('account-address')).toHaveText(wallet.current().address)

  const cookie = await sessionCookie(page)
  await expect(page.getByTestId('account-wallet')).toHaveText(TEST_WALLET.name)

  // After a reload the last wallet reconnects by itself, so its events are heard again.
  await page.reload()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  await expect(page.getByTestId('account-wallet')).toHaveText(TEST_WALLET.name)
  await wallet.switchAccount(page, 1)
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  // The old account's server session ended as well.
  await expect.poll(() => sessionStatus(page, cookie)).toBe(401)
})

test('switching the wallet to another chain signs the user out', async ({ page }) => {
  const wallet = await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/account')
  const dialog = await openConnectDialog(page)
  await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
  await expect(page.getByTestId('account-chain')).toHaveText('Anvil (local), chain 31337')
  const cookie = await sessionCookie(page)

  await wallet.switchChain(page, 1)
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await expect.poll(() => sessionStatus(page, cookie)).toBe(401)
})

test('disconnecting the site in the wallet signs the user out', async ({ page }) => {
  const wallet = await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/account')
  const dialog = await openConnectDialog(page)
  await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
  await expect(page.getByTestId('account-wallet')).toHaveText(TEST_WALLET.name)

  await wallet.disconnect(page)
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
})

test('sign-out when the server cannot be reached still signs out here, and says so', async ({
  page,
}) => {
  await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/account')
  const dialog = await openConnectDialog(page)
  await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')

  await page.route('**/api/auth/logout', (route) => route.abort('connectionrefused'))
  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated', {
    timeout: 30_000,
  })
  await expect(authStatus(page).getByRole('alert')).toContainText(
    'the server could not be reached to end the session',
  )
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
})

for (const theme of ['light', 'dark'] as const) {
  test(`a wallet on the wrong network: names, "Switch network" adds and switches, then sign-in goes on (${theme})`, async ({
    page,
  }) => {
    const wallet = await installTestWallet(page, { anvilUrl: anvilUrl() })
    await seedStorage(page, { theme })
    await page.goto('/')
    await wallet.switchChain(page, 5)
    const dialog = await openConnectDialog(page)
    await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
    const alert = dialog.getByRole('alert')
    await expect(alert).toContainText('Your wallet is on Chain 5, which this site does not accept')
    await expect(alert).toContainText('Switch your wallet to Ethereum or Anvil (local).')
    // Checked before any signature was asked for.
    expect(wallet.signatures).toEqual([])
    await expectNoSeriousAxeViolations(page)

    await alert.getByRole('button', { name: 'Switch to Anvil (local)' }).click()
    await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
    const requests = await page.evaluate(() => window.__testWallet!.networkRequests)
    expect(requests[0]).toBe('wallet_switchEthereumChain 0x7a69')
    expect(requests[1]).toMatch(
      /^wallet_addEthereumChain 0x7a69 http:\/\/127\.0\.0\.1:\d+\/api\/rpc\/31337$/,
    )
    expect(wallet.signatures).toHaveLength(1)
  })
}

test('closing the dialog after a failed sign-in leaves the header clean', async ({ page }) => {
  const wallet = await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/')
  await wallet.switchChain(page, 5)
  const dialog = await openConnectDialog(page)
  await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
  await expect(dialog.getByRole('alert')).toBeVisible()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'error')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await expect(authStatus(page).getByRole('button', { name: 'Connect wallet' })).toBeVisible()
})
