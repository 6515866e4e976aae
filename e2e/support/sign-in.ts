import { expect, type Page } from '@playwright/test'
import { anvilUrl } from '../ports.ts'
import { authStatus, openConnectDialog } from '../wallet/journey.ts'
import { installTestWallet, TEST_WALLET } from '../wallet/test-wallet.ts'

/**
 * Signs in through the real UI with the wallet engineer's test wallet (anvil account `account`:
 * 0 is the e2e server's admin, 1 is not, 2 is a console viewer, 3 is the public-profile spec's
 * own). Leaves the page on `/`, signed in.
 */
export async function signInWithTestWallet(page: Page, account = 0) {
  const wallet = await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/')
  if (account !== 0) await wallet.switchAccount(page, account)
  const dialog = await openConnectDialog(page)
  await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  return wallet
}

/** Resolves when the app has sent event `event` and the server accepted it. */
export function eventAccepted(page: Page, event: string) {
  return page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/events' &&
      response.request().method() === 'POST' &&
      (response.request().postDataJSON() as { event?: string }).event === event &&
      response.status() === 202,
  )
}

/** Clicks a link of the main navigation (a client-side route change). */
export async function navigate(page: Page, label: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click()
}
