import { expect, test } from '@playwright/test'
import { signInWithTestWallet } from './support/sign-in.ts'
import { authStatus } from './wallet/journey.ts'
import { TEST_WALLET } from './wallet/test-wallet.ts'

// Tabs of one browser share the session: a reload keeps it without a new signature, and signing
// out (or in) in one tab reaches the others within a second.

test('a reload keeps the session without asking the wallet to sign again', async ({ page }) => {
  const wallet = await signInWithTestWallet(page, 1)
  const signed = wallet.signatures.length
  expect(signed).toBeGreaterThan(0)
  await page.reload()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  await page.goto('/account')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
  expect(wallet.signatures.length).toBe(signed)
})

test('signing out in one tab signs the other tabs out within a second, and in again', async ({
  page,
  context,
}) => {
  await signInWithTestWallet(page, 1)
  const other = await context.newPage()
  await other.goto('/account')
  await expect(authStatus(other)).toHaveAttribute('data-auth-state', 'authenticated')

  await other.getByRole('button', { name: 'Sign out' }).last().click()
  await expect(authStatus(other)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated', {
    timeout: 1_000,
  })

  // Signing in again in the first tab signs the other one in too, without its wallet.
  await authStatus(page).getByRole('button', { name: 'Connect wallet' }).click()
  await page
    .getByRole('dialog', { name: 'Connect a wallet' })
    .getByRole('button', { name: TEST_WALLET.name })
    .click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  await expect(authStatus(other)).toHaveAttribute('data-auth-state', 'authenticated', {
    timeout: 1_000,
  })
})
