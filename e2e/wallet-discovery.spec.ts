import { expect, test } from '@playwright/test'
import { seedStorage } from './helpers.ts'
import { anvilUrl } from './ports.ts'
import { installTestWallet, TEST_WALLET } from './wallet/test-wallet.ts'
import { authStatus, openConnectDialog } from './wallet/journey.ts'
import { seriousAxe } from './support/axe.ts'

// Finding browser wallets: EIP-6963 announcements, a legacy window.ethereum that shows
// up late, and none at all; and the dialog's keyboard behaviour.

test('a legacy window.ethereum appearing 1 s after load is found and signs in', async ({
  page,
}) => {
  const wallet = await installTestWallet(page, { anvilUrl: anvilUrl(), mode: 'legacy-late' })
  await page.goto('/')
  const dialog = await openConnectDialog(page)
  const browserWallet = dialog.getByRole('button', { name: 'Browser wallet' })
  await expect(browserWallet).toBeVisible()
  await expect(dialog.getByText('No browser wallet found')).toHaveCount(0)
  await browserWallet.click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  expect(wallet.signatures).toEqual(['personal_sign'])
})

test('with no wallet at all the dialog says so clearly once the wait is over', async ({ page }) => {
  await installTestWallet(page, { anvilUrl: anvilUrl(), mode: 'none' })
  await page.goto('/')
  const dialog = await openConnectDialog(page)
  // First it looks (a wallet extension may still be injecting itself) ...
  await expect(dialog.getByText('Looking for browser wallets…')).toBeVisible()
  // ... and after the 3000 ms wait it says what to do instead.
  const notice = dialog.getByText('No browser wallet found')
  await expect(notice).toBeVisible({ timeout: 10_000 })
  await expect(notice).toContainText('Get one, then reload this page')
  const downloads = dialog.getByRole('list', { name: 'Get a wallet' }).getByRole('link')
  await expect(downloads).toHaveText(['Get MetaMask', 'Get Rabby', 'Get Coinbase Wallet'])
  await expect(dialog.getByRole('button', { name: 'WalletConnect (QR code)' })).toBeVisible()
})

test('the dialog is labelled, keeps focus inside, closes on Escape and gives focus back', async ({
  page,
}) => {
  await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/')
  const dialog = await openConnectDialog(page)
  await expect(dialog.getByRole('button', { name: TEST_WALLET.name })).toBeVisible()
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press('Tab')
    expect(
      await page.evaluate(() => Boolean(document.activeElement?.closest('dialog'))),
      'focus stays inside the dialog',
    ).toBe(true)
  }
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(authStatus(page).getByRole('button', { name: 'Connect wallet' })).toBeFocused()
})

for (const theme of ['light', 'dark'] as const) {
  test(`the open connect dialog has no serious or critical axe violations (${theme})`, async ({
    page,
  }) => {
    await seedStorage(page, { theme })
    await installTestWallet(page, { anvilUrl: anvilUrl() })
    await page.goto('/')
    const dialog = await openConnectDialog(page)
    await expect(dialog.getByRole('button', { name: TEST_WALLET.name })).toBeVisible()
    const results = await seriousAxe(page).include('dialog').analyze()
    const blocking = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({ id: violation.id, targets: violation.nodes.map((n) => n.target) }))
    expect(blocking).toEqual([])
  })
}
