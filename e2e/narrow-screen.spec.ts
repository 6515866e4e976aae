import { expect, test, type Page } from '@playwright/test'
import { appStarted, seedStorage } from './helpers.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { signInWithTestWallet } from './support/sign-in.ts'
import { authStatus, openConnectDialog } from './wallet/journey.ts'

// Nothing is wider than a 320 px screen: every page, signed out and signed in (as the admin, who
// sees the most), in both themes, with the account menu and the connect dialog open. The page
// must not scroll sideways: the document's scroll width is the viewport's.
test.use({ reducedMotion: 'reduce' })

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const PATHS = [
  '/',
  '/account',
  '/analytics',
  '/admin',
  `/u/${ADDRESS}`,
  '/u/not-an-address',
  '/no-such-page/with/a/rather-long-path-that-would-not-fit-on-a-phone-screen-at-all',
]

/** The widest thing on the page, and what sticks out past the right edge (for the message). */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => {
        const box = element.getBoundingClientRect()
        if (!(box.width > 0 && (box.right > width + 0.5 || box.left < -0.5))) return false
        // Inside a frame that scrolls sideways on its own (the console's tabs, a wide grid), an
        // element may run past the screen: the page itself does not.
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
          const overflow = getComputedStyle(up).overflowX
          if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') {
            const frame = up.getBoundingClientRect()
            if (frame.left >= -0.5 && frame.right <= width + 0.5) return false
          }
        }
        return true
      })
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`)
    return { scrollWidth: document.documentElement.scrollWidth, width, wide }
  })
}

async function expectFits(page: Page, what = page.url()) {
  const measured = await overflow(page)
  expect(
    measured,
    `${what} is wider than ${measured.width} px: ${measured.wide.join(', ')}`,
  ).toMatchObject({
    scrollWidth: measured.width,
    wide: [],
  })
}

for (const theme of ['light', 'dark'] as const) {
  test(`every page fits 320 px signed out (${theme})`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 700 })
    await seedStorage(page, { theme })
    for (const path of PATHS) {
      await page.goto(path)
      await appStarted(page)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expectFits(page)
    }
    await page.goto('/')
    const dialog = await openConnectDialog(page)
    await expect(dialog.getByRole('heading', { name: 'Browser wallets' })).toBeVisible()
    await expectFits(page)
    await expectNoSeriousAxeViolations(page)
  })

  test(`every page fits 320 px signed in, account menu open (${theme})`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 700 })
    await seedStorage(page, { theme })
    await signInWithTestWallet(page)
    for (const path of PATHS) {
      await page.goto(path)
      await appStarted(page)
      await expect(authStatus(page)).toHaveAttribute('data-auth-state', 'authenticated')
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
      await expectFits(page)
    }
    await page.goto('/')
    await authStatus(page)
      .getByRole('button', { name: /^Account menu/ })
      .click()
    const menu = authStatus(page).getByRole('group', { name: 'Account' })
    await expect(menu).toBeVisible()
    await expectFits(page)
    const box = (await menu.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(320)
    await expectNoSeriousAxeViolations(page)
  })
}
