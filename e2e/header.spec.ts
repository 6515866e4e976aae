import { expect, test, type Page } from '@playwright/test'
import { appStarted, seedStorage } from './helpers.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { signInWithTestWallet } from './support/sign-in.ts'
import { authStatus } from './wallet/journey.ts'

// The header at phone and desktop widths, in both themes: one row, a Menu button on phones,
// the account menu when signed in, and nothing that moves when the sign-in state changes.

test.use({ reducedMotion: 'reduce' })

const header = (page: Page) => page.locator('.site-header')
const menuButton = (page: Page) => page.getByRole('button', { name: 'Menu' })
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' })

/** Where the header and its parts are: compared before and after a sign-in. */
async function layout(page: Page) {
  const box = async (selector: string) => {
    const b = await page.locator(selector).first().boundingBox()
    return b && [Math.round(b.x), Math.round(b.y), Math.round(b.width), Math.round(b.height)]
  }
  return {
    header: await box('.site-header'),
    brand: await box('.brand'),
    auth: await box('.auth-status'),
    main: await box('main h1'),
  }
}

for (const theme of ['light', 'dark'] as const) {
  test(`at 320 px the header is one row with a Menu button (${theme})`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 })
    await seedStorage(page, { theme })
    await page.goto('/analytics')
    await appStarted(page)
    const height = (await header(page).boundingBox())!.height
    expect(height).toBeLessThan(70)
    await expect(nav(page)).toBeHidden()
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false')
    await menuButton(page).click()
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true')
    await expect(nav(page)).toBeVisible()
    await expect(page.getByRole('group', { name: 'Colour theme' })).toBeVisible()
    await expectNoSeriousAxeViolations(page)
    // Following a link closes the menu again.
    await nav(page).getByRole('link', { name: 'Home' }).click()
    await expect(page).toHaveURL(/\/$/)
    await expect(nav(page)).toBeHidden()
    // No horizontal scrolling at 320 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
  })

  test(`at 1280 px everything sits in one row, no Menu button (${theme})`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await seedStorage(page, { theme })
    await page.goto('/')
    await appStarted(page)
    await expect(menuButton(page)).toBeHidden()
    await expect(nav(page)).toBeVisible()
    const [brand, auth] = [
      await page.locator('.brand').boundingBox(),
      await authStatus(page).boundingBox(),
    ]
    expect(Math.abs(brand!.y + brand!.height / 2 - (auth!.y + auth!.height / 2))).toBeLessThan(4)
    expect((await header(page).boundingBox())!.height).toBeLessThan(70)
  })
}

for (const width of [320, 1280]) {
  test(`signing in moves nothing in the header or the page at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/analytics')
    await appStarted(page)
    await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
    const before = await layout(page)
    await signInWithTestWallet(page, 1)
    await page.goto('/analytics')
    await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
    await expect(authStatus(page).getByRole('button', { name: /^Account menu/ })).toBeVisible()
    expect(await layout(page)).toEqual(before)
  })
}

for (const theme of ['light', 'dark'] as const) {
  test(`the account menu: address, copy, Account, sign out; Escape closes it (${theme})`, async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await seedStorage(page, { theme })
    const wallet = await signInWithTestWallet(page, 1)
    const address = wallet.current().address
    const trigger = authStatus(page).getByRole('button', { name: /^Account menu/ })
    await expect(trigger).toHaveAccessibleName(
      `Account menu, signed in as ${address.slice(0, 6)}…${address.slice(-4)}`,
    )
    await expect(trigger.locator('svg.identicon')).toBeVisible()

    await trigger.click()
    const menu = page.getByRole('group', { name: 'Account' })
    await expect(menu).toContainText(address)
    await expectNoSeriousAxeViolations(page)
    await menu.getByRole('button', { name: 'Copy address' }).click()
    await expect(menu.getByRole('button', { name: 'Address copied' })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address)

    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()
    await expect(trigger).toBeFocused()

    await trigger.click()
    await menu.getByRole('link', { name: 'Account' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
    await expect(menu).toBeHidden()

    await trigger.click()
    await menu.getByRole('button', { name: 'Sign out' }).click()
    await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'unauthenticated')
  })
}
