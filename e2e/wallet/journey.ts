import { expect, type Page } from '@playwright/test'
import { appStarted } from '../helpers.ts'

/** The header's authentication area (`data-auth-state` carries the raw state). */
export const authStatus = (page: Page) => page.locator('.auth-status')

/** Opens the connect dialog from the header and returns it. */
export async function openConnectDialog(page: Page) {
  await appStarted(page)
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await authStatus(page).getByRole('button', { name: 'Connect wallet' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect a wallet' })
  await expect(dialog).toBeVisible()
  return dialog
}

/**
 * Records every request the page makes, so a test can assert that none left 127.0.0.1 and see
 * which scripts were fetched.
 */
export function recordRequests(page: Page) {
  const urls: string[] = []
  page.on('request', (request) => urls.push(request.url()))
  return {
    urls,
    foreign: () =>
      urls.filter((url) => !url.startsWith('data:') && new URL(url).hostname !== '127.0.0.1'),
    scripts: () => urls.filter((url) => url.endsWith('.js')).map((url) => new URL(url).pathname),
  }
}

/** Opens the Account page from the header's account menu (signed in). */
export async function openAccountFromHeader(page: Page) {
  await authStatus(page)
    .getByRole('button', { name: /^Account menu/ })
    .click()
  await authStatus(page)
    .getByRole('group', { name: 'Account' })
    .getByRole('link', { name: 'Account' })
    .click()
}
