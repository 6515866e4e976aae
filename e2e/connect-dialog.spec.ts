import { expect, test, type Page } from '@playwright/test'
import { seedStorage } from './helpers.ts'
import { anvilUrl } from './ports.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { installTestWallet, TEST_WALLET } from './wallet/test-wallet.ts'
import { authStatus, openConnectDialog } from './wallet/journey.ts'

// The connect dialog for visitors without a browser wallet (phones above all), the search for
// browser wallets done once per page load, the wallet used last listed first, and failed
// sign-ins that say what to do with one primary button.
test.use({ reducedMotion: 'reduce' })

/** The dialog's filled (primary) buttons: secondary ones are outlined, with a clear background. */
async function primaryButtons(page: Page) {
  return page
    .getByRole('dialog')
    .locator('button:not(.button-secondary):not(.link-button):not([disabled])')
    .allTextContents()
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`a phone without a browser wallet (${theme})`, () => {
    test.use({ hasTouch: true, isMobile: true, viewport: { width: 320, height: 640 } })

    test('opens this page in a wallet app, explains wallets, and is not a dead end', async ({
      page,
    }) => {
      await seedStorage(page, { theme })
      await installTestWallet(page, { anvilUrl: anvilUrl(), mode: 'none' })
      await page.goto('/account?from=phone')
      const dialog = await openConnectDialog(page)
      // Shown at once, while the page still looks for a browser wallet.
      const apps = dialog
        .getByRole('list')
        .filter({ has: page.getByRole('link') })
        .first()
      await expect(dialog.getByRole('heading', { name: 'Open in a wallet app' })).toBeVisible({
        timeout: 1500,
      })
      const origin = new URL(page.url())
      const pageUrl = `${origin.origin}/account?from=phone`
      await expect(apps.getByRole('link')).toHaveText([
        'MetaMask',
        'Coinbase Wallet',
        'Trust Wallet',
      ])
      await expect(apps.getByRole('link', { name: 'MetaMask' })).toHaveAttribute(
        'href',
        `https://link.metamask.io/dapp/${origin.host}/account?from=phone`,
      )
      await expect(apps.getByRole('link', { name: 'Coinbase Wallet' })).toHaveAttribute(
        'href',
        `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(pageUrl)}`,
      )
      await expect(apps.getByRole('link', { name: 'Trust Wallet' })).toHaveAttribute(
        'href',
        `https://link.trustwallet.com/open_url?coin_id=60&url=${encodeURIComponent(pageUrl)}`,
      )
      // Each has its bundled icon (no request to the vendors).
      await expect(apps.locator('svg.wallet-icon')).toHaveCount(3)
      await expect(dialog.getByText('Get MetaMask')).toHaveCount(0)

      await dialog.getByText('What is a wallet?').click()
      await expect(dialog.getByText(/proves that an address is yours/)).toBeVisible()
      for (const target of await dialog.locator('a, button, summary').all()) {
        const box = (await target.boundingBox())!
        expect(box.height, await target.innerText()).toBeGreaterThanOrEqual(44)
      }
      const width = await page.evaluate(() => document.documentElement.scrollWidth)
      expect(width).toBe(320)
      await expectNoSeriousAxeViolations(page)
      await page.screenshot({ path: `/tmp/portico-visitor-connect-phone-${theme}.png` })

      // The app chosen is listed first next time.
      await page.route('https://go.cb-w.com/**', (route) => route.fulfill({ body: 'app' }))
      await apps.getByRole('link', { name: 'Coinbase Wallet' }).click()
      await page.goto('/')
      const again = await openConnectDialog(page)
      await expect(again.getByRole('link').first()).toHaveText('Coinbase WalletLast used')
    })
  })
}

test('browser wallets are looked for once per page load: a second opening answers at once', async ({
  page,
}) => {
  await installTestWallet(page, { anvilUrl: anvilUrl(), mode: 'none' })
  await page.goto('/')
  let dialog = await openConnectDialog(page)
  await expect(dialog.getByText('No browser wallet found')).toBeVisible({ timeout: 10_000 })
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  dialog = await openConnectDialog(page)
  // No second 3 s search: the answer is there as soon as the dialog is.
  await expect(dialog.getByText('No browser wallet found')).toBeVisible({ timeout: 500 })
  await expect(dialog.getByText('Looking for browser wallets…')).toHaveCount(0)
  await expect(dialog.getByText('Loading wallets…')).toHaveCount(0)
})

test('the wallet used last is marked and listed first', async ({ page }) => {
  await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/')
  let dialog = await openConnectDialog(page)
  await expect(dialog.getByText('Last used')).toHaveCount(0)
  await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  await page.evaluate(() => localStorage.removeItem('portico.session'))
  await page.getByRole('button', { name: /^Account menu/ }).click()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  dialog = await openConnectDialog(page)
  await expect(dialog.getByRole('button', { name: TEST_WALLET.name })).toContainText('Last used')
})

for (const theme of ['light', 'dark'] as const) {
  test(`a declined signature and a wallet that will not switch say what to do, one primary button each (${theme})`, async ({
    page,
  }) => {
    await seedStorage(page, { theme })
    const wallet = await installTestWallet(page, { anvilUrl: anvilUrl() })
    await page.goto('/')
    await wallet.rejectNextSignature(page)
    const dialog = await openConnectDialog(page)
    await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
    const alert = dialog.getByRole('alert')
    await expect(alert.locator('.error-message')).toHaveText(
      'You declined the sign-in in your wallet',
    )
    await expect(alert).toContainText('press Try again and approve the message')
    expect(await primaryButtons(page)).toEqual(['Try again'])
    await expectNoSeriousAxeViolations(page)
    await alert.getByRole('button', { name: 'Choose another way' }).click()
    await expect(dialog.getByRole('button', { name: TEST_WALLET.name })).toBeVisible()

    // Wrong network: one primary button, the site's first network.
    await wallet.switchChain(page, 5)
    await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
    await expect(alert).toContainText('which this site does not accept')
    expect(await primaryButtons(page)).toEqual(['Switch to Ethereum'])
    await expectNoSeriousAxeViolations(page)
    await page.screenshot({ path: `/tmp/portico-visitor-connect-wrong-network-${theme}.png` })

    // The wallet refuses to switch: the dialog says what to do by hand, and Try again leads.
    await wallet.rejectNextSignature(page)
    await alert.getByRole('button', { name: 'Switch to Anvil (local)' }).click()
    await expect(alert).toContainText(
      'Your wallet did not switch. Open your wallet, choose Anvil (local) as its network, then press Try again.',
    )
    expect(await primaryButtons(page)).toEqual(['Try again'])
    await expectNoSeriousAxeViolations(page)
    await wallet.switchChain(page, 31337)
    await alert.getByRole('button', { name: 'Try again' }).click()
    await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  })
}
