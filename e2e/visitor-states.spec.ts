import { expect, test, type Page } from '@playwright/test'
import { appStarted, seedStorage } from './helpers.ts'
import { anvilUrl } from './ports.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { signInWithTestWallet } from './support/sign-in.ts'
import { installTestWallet, TEST_WALLET } from './wallet/test-wallet.ts'
import { authStatus, openConnectDialog } from './wallet/journey.ts'

// What a visitor meets on the pages that need a sign-in or a team role (one design for "sign in
// first" and "not allowed"), the navigation per role, the profile in the header, the Account
// page's wallet and sessions, and the keyboard and touch behaviour of the header's menus.
test.use({ reducedMotion: 'reduce' })

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' })

for (const width of [320, 1280]) {
  for (const theme of ['light', 'dark'] as const) {
    test(`signed out, Account, Analytics and Console all ask to sign in the same way (${theme}, ${width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 })
      await seedStorage(page, { theme })
      for (const [path, heading] of [
        ['/account', 'Your account'],
        ['/analytics', 'Analytics'],
        ['/admin', 'Console'],
      ] as const) {
        await page.goto(path)
        await appStarted(page)
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
        const card = page.locator('[data-access]')
        await expect(card).toHaveAttribute('data-access', 'sign-in')
        await expect(card.getByRole('heading', { level: 2 })).toHaveText('Sign in first')
        await expect(card.getByRole('button')).toHaveText(['Sign in'])
        // Not the refusal of a signed-in user, nor a bare status code. Recent activity (shown to
        // everyone) is chain data: its hashes and numbers may contain any digits.
        const ownText = page.locator(':not(#recent-activity *)')
        await expect(page.getByText(/Not allowed/)).toHaveCount(0)
        await expect(page.getByText(/\b403\b/).and(ownText)).toHaveCount(0)
        await expectNoSeriousAxeViolations(page)
      }
      await page.screenshot({
        path: `/tmp/portico-visitor-states-console-signed-out-${theme}-${width}.png`,
      })
    })
  }
}

test('a signed-in user off the team: no Analytics or Console links, one "not allowed" design, no refused request', async ({
  page,
}) => {
  const refused: string[] = []
  page.on('response', (response) => {
    if (response.status() === 403) refused.push(new URL(response.url()).pathname)
  })
  await signInWithTestWallet(page, 1)
  await expect(mainNav(page).getByRole('link')).toHaveText(['Home', 'Account'])
  for (const path of ['/analytics', '/admin', '/admin/users']) {
    await page.goto(path)
    const card = page.locator('[data-access]')
    await expect(card).toHaveAttribute('data-access', 'not-allowed')
    await expect(card.getByRole('heading', { level: 2 })).toHaveText('Not allowed')
    await expect(card).toContainText("only for this site's team")
  }
  await expectNoSeriousAxeViolations(page)
  expect(refused).toEqual([])
})

test('the team sees Analytics and Console in the navigation', async ({ page }) => {
  await signInWithTestWallet(page, 0)
  await expect(mainNav(page).getByRole('link')).toHaveText([
    'Home',
    'Account',
    'Analytics',
    'Console',
  ])
  // Still after a reload (the session read back from the server says the role too).
  await page.reload()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  await expect(mainNav(page).getByRole('link')).toHaveText([
    'Home',
    'Account',
    'Analytics',
    'Console',
  ])
  await mainNav(page).getByRole('link', { name: 'Console' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Console' })).toBeVisible()
})

test('after signing in from a page, focus moves to its heading', async ({ page }) => {
  await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/account')
  await appStarted(page)
  await page.locator('[data-access]').getByRole('button', { name: 'Sign in' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect a wallet' })
  await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeFocused()
})

test('the display name and avatar show in the header button and the account menu', async ({
  page,
}) => {
  await signInWithTestWallet(page, 2)
  await page.goto('/account')
  const form = page.getByRole('form', { name: 'Profile' })
  await form.getByLabel('Display name').fill('Grace Hopper')
  await form.getByLabel(/image…/).setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    ),
  })
  await expect(form.getByRole('progressbar')).toHaveCount(0)
  await form.getByRole('button', { name: 'Save profile' }).click()
  await expect(form.getByText('Profile saved.')).toBeVisible()

  const button = authStatus(page).getByRole('button', { name: /^Account menu/ })
  await expect(button).toHaveAccessibleName(/signed in as Grace Hopper \(0x3C44…93BC\)/)
  await expect(button).toContainText('Grace Hopper')
  await expect(button.locator('img.user-avatar')).toHaveAttribute('src', /_avatar\.png$/)
  await page.reload()
  await expect(button).toContainText('Grace Hopper')
  await button.click()
  const menu = authStatus(page).getByRole('group', { name: 'Account' })
  await expect(menu.locator('.account-menu-name')).toHaveText('Grace Hopper')
  await expect(menu.locator('img.user-avatar')).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await page.screenshot({ path: '/tmp/portico-visitor-header-profile.png' })
})

test('Account: chain by name, copy, no explorer for a local chain; sessions with device and confirmation', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const wallet = await signInWithTestWallet(page, 1)
  await page.goto('/account')
  await expect(page.getByTestId('account-chain')).toHaveText('Anvil (local), chain 31337')
  await page.getByRole('button', { name: 'Copy', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(wallet.current().address)
  await expect(page.getByRole('link', { name: /View on/ })).toHaveCount(0)
  await expect(page.getByTestId('account-block')).toHaveText(/^\d+$/)

  const sessions = page.getByRole('region', { name: 'Your sessions' })
  await expect(sessions.getByRole('listitem').first()).toContainText(
    /Chrome on Linux · This browser/,
  )
  await expect(sessions.getByRole('listitem').first()).toContainText(/Last used/)
  // Revoking this browser asks first; cancelling keeps the session.
  await sessions.getByRole('button', { name: 'Revoke session (this browser)' }).click()
  await expect(sessions.getByText('This signs you out here.')).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await sessions.getByRole('button', { name: 'Cancel' }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  await sessions.getByRole('button', { name: 'Revoke session (this browser)' }).click()
  const failures: number[] = []
  page.on('response', (response) => response.status() >= 400 && failures.push(response.status()))
  await sessions.getByRole('button', { name: 'Sign out here' }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await expect(
    page.getByRole('status').filter({ hasText: 'You revoked this browser' }),
  ).toBeVisible()
  expect(failures).toEqual([])
})

test('"Sign out everywhere" ends every session of the account, after a confirmation', async ({
  page,
  browser,
}) => {
  await signInWithTestWallet(page, 1)
  const other = await browser.newPage()
  await signInWithTestWallet(other, 1)
  await page.goto('/account')
  const sessions = page.getByRole('region', { name: 'Your sessions' })
  await sessions.getByRole('button', { name: 'Sign out everywhere…' }).click()
  await expect(sessions.getByText(/this one too, will be signed out/)).toBeVisible()
  await sessions.getByRole('button', { name: 'Sign out everywhere', exact: true }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await expect(
    page.getByRole('status').filter({ hasText: 'You signed out everywhere' }),
  ).toBeVisible()
  await other.reload()
  await expect(authStatus(other)).toHaveAttribute('data-auth-state', 'unauthenticated')
  await other.close()
})

test('signed in on a chain the site has no node for, the Account page says so', async ({
  page,
}) => {
  const wallet = await installTestWallet(page, { anvilUrl: anvilUrl() })
  await page.goto('/account')
  await wallet.switchChain(page, 1)
  const dialog = await openConnectDialog(page)
  await dialog.getByRole('button', { name: TEST_WALLET.name }).click()
  await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
  await expect(page.getByTestId('account-chain')).toHaveText('Ethereum, chain 1')
  await expect(page.getByTestId('account-no-node')).toHaveText(/This site has no node for chain 1/)
  await expect(page.getByRole('link', { name: 'View on Etherscan' })).toHaveAttribute(
    'href',
    `https://etherscan.io/address/${wallet.current().address}`,
  )
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 320, height: 640 }, hasTouch: true })

  test('the menu closes on Escape and on a tap outside, and its icon becomes a close icon', async ({
    page,
  }) => {
    await page.goto('/')
    await appStarted(page)
    const button = page.getByRole('button', { name: 'Menu' })
    const box = (await button.boundingBox())!
    expect(box.height).toBeGreaterThanOrEqual(44)
    expect(box.width).toBeGreaterThanOrEqual(44)
    await button.click()
    await expect(button).toHaveAttribute('aria-expanded', 'true')
    await expect(mainNav(page)).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await expect(button).toBeFocused()
    await expect(mainNav(page)).toBeHidden()
    await button.click()
    await page.mouse.click(160, 500)
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    const connect = authStatus(page).getByRole('button', { name: 'Connect wallet' })
    expect((await connect.boundingBox())!.height).toBeGreaterThanOrEqual(44)
  })

  test('the account menu closes when focus leaves it', async ({ page }) => {
    await signInWithTestWallet(page, 1)
    const button = authStatus(page).getByRole('button', { name: /^Account menu/ })
    await button.click()
    const menu = authStatus(page).getByRole('group', { name: 'Account' })
    await expect(menu).toBeVisible()
    await menu.getByRole('button', { name: 'Sign out' }).focus()
    await page.keyboard.press('Tab')
    await expect(menu).toBeHidden()
  })
})
