import { expect, test, type Locator, type Page } from '@playwright/test'
import { signInWithTestWallet } from './support/sign-in.ts'
import { authStatus, openAccountFromHeader } from './wallet/journey.ts'
import { TEST_WALLET } from './wallet/test-wallet.ts'

// The Account page with motion allowed (scroll reveal on): content that mounts after the route
// change (signed in, signed out, prompt) must be revealed, never left as a blank band.

test.use({ reducedMotion: 'no-preference' })

/** Shown for real: revealed by the controller and fully opaque once its transition ends. */
async function expectShown(section: Locator) {
  await expect(section).toHaveAttribute('data-revealed', '')
  await expect.poll(() => section.evaluate((e) => getComputedStyle(e).opacity)).toBe('1')
}

const intro = (page: Page) => page.locator('#account-intro')
const prompt = (page: Page) => page.locator('#sign-in-required')

test('opening and reloading /account while signed in shows "Your account"', async ({ page }) => {
  await signInWithTestWallet(page, 1)
  await openAccountFromHeader(page)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
  await expectShown(intro(page))
  await page.reload()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
  await expectShown(intro(page))
})

test('signing out on /account shows the sign-in prompt; signing in from it shows the account', async ({
  page,
}) => {
  await signInWithTestWallet(page, 1)
  await openAccountFromHeader(page)
  await expectShown(intro(page))
  await page.getByRole('button', { name: 'Sign out' }).last().click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await expectShown(prompt(page))

  await prompt(page).getByRole('button', { name: 'Sign in' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect a wallet' })
  await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  await expectShown(intro(page))
})

test('revoking "This browser" on /account shows the sign-in prompt', async ({ page }) => {
  await signInWithTestWallet(page, 1)
  await openAccountFromHeader(page)
  await expectShown(intro(page))
  await page.getByRole('button', { name: 'Revoke session (this browser)' }).click()
  // It asks first: revoking this browser's session signs out here.
  await page.getByRole('button', { name: 'Sign out here' }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await expectShown(prompt(page))
})

test('opening /account signed out shows the prompt', async ({ page }) => {
  await page.goto('/account')
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await expectShown(prompt(page))
})
