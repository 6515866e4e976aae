import { expect, test, type Locator, type Page } from '@playwright/test'
import { appStarted, settleFrames } from './helpers.ts'

// "Scroll reveal": revealed at 10 % visible (threshold 0.1), once per element, rescanned
// after every route change; reduced motion shows everything; no JS hides nothing.

const BELOW_THE_FOLD = '#get-started'

/** Scrolls so that `fraction` of the element's height is inside the viewport, from the bottom. */
async function scrollToVisibleFraction(page: Page, target: Locator, fraction: number) {
  await target.evaluate((element, f) => {
    const rect = element.getBoundingClientRect()
    const visible = rect.height * f
    window.scrollBy(0, rect.top - (window.innerHeight - visible))
  }, fraction)
  await settleFrames(page)
}

async function loadHome(page: Page) {
  await page.goto('/')
  await appStarted(page)
  await settleFrames(page)
}

test('an element below the fold is not revealed on load', async ({ page }) => {
  await loadHome(page)
  const target = page.locator(BELOW_THE_FOLD)
  expect(await target.evaluate((e) => e.getBoundingClientRect().top > window.innerHeight)).toBe(
    true,
  )
  await expect(target).not.toHaveAttribute('data-revealed')
  await expect(target).toHaveCSS('opacity', '0')
  // The first screen is never hidden: it paints with the HTML, before any script.
  await expect(page.locator('#hero')).not.toHaveAttribute('data-reveal')
  await expect(page.locator('#hero')).toHaveCSS('opacity', '1')
})

test('an element is revealed once about 10 % of it is visible, not before', async ({ page }) => {
  await loadHome(page)
  const target = page.locator(BELOW_THE_FOLD)
  await scrollToVisibleFraction(page, target, 0.05)
  await expect(target).not.toHaveAttribute('data-revealed')

  await scrollToVisibleFraction(page, target, 0.15)
  await expect(target).toHaveAttribute('data-revealed')
  await expect(target).toHaveCSS('opacity', '1')
})

test('a revealed element stays revealed after scrolling away', async ({ page }) => {
  await loadHome(page)
  const target = page.locator(BELOW_THE_FOLD)
  await target.scrollIntoViewIfNeeded()
  await expect(target).toHaveAttribute('data-revealed')

  await page.evaluate(() => window.scrollTo(0, 0))
  await settleFrames(page)
  expect(await target.evaluate((e) => e.getBoundingClientRect().top > window.innerHeight)).toBe(
    true,
  )
  await expect(target).toHaveAttribute('data-revealed')
  await expect(target).toHaveCSS('opacity', '1')
})

test("after navigating away and back, the new page's elements reveal again", async ({ page }) => {
  await loadHome(page)
  await page.locator(BELOW_THE_FOLD).scrollIntoViewIfNeeded()
  await expect(page.locator(BELOW_THE_FOLD)).toHaveAttribute('data-revealed')

  const nav = page.getByRole('navigation', { name: 'Main' })
  // Visitors see Account's sign-in prompt, itself a reveal target.
  await nav.getByRole('link', { name: 'Account' }).click()
  await expect(page.locator('#sign-in-required')).toHaveAttribute('data-revealed')

  await nav.getByRole('link', { name: 'Home' }).click()
  await expect(page.locator('#hero')).toBeVisible()
  await settleFrames(page)
  // A fresh Home: the element below the fold waits for the scroll again.
  const target = page.locator(BELOW_THE_FOLD)
  await expect(target).not.toHaveAttribute('data-revealed')
  await scrollToVisibleFraction(page, target, 0.15)
  await expect(target).toHaveAttribute('data-revealed')
})

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' })

  test('every reveal target is visible at once, without animation', async ({ page }) => {
    await loadHome(page)
    const targets = page.locator('[data-reveal]')
    expect(await targets.count()).toBeGreaterThan(3)
    for (const target of await targets.all()) {
      await expect(target).toHaveAttribute('data-revealed')
      await expect(target).toHaveCSS('opacity', '1')
      await expect(target).toHaveCSS('transition-duration', '0s')
    }
  })
})

test.describe('with JavaScript disabled', () => {
  test.use({ javaScriptEnabled: false })

  test("the page's content is visible", async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Your wallet is your account here',
    )
    const targets = page.locator('[data-reveal]')
    expect(await targets.count()).toBeGreaterThan(3)
    for (const target of await targets.all()) {
      await expect(target).toHaveCSS('opacity', '1')
      await target.scrollIntoViewIfNeeded()
      await expect(target).toBeVisible()
    }
    await expect(page.getByRole('heading', { name: 'Ready when you are' })).toBeVisible()
  })
})

test('if the app bundle fails to load, nothing stays hidden', async ({ page }) => {
  await page.route('**/assets/index-*.js', (route) => route.abort())
  await page.goto('/')
  await expect(page.locator('html')).not.toHaveClass(/js-reveal/)
  for (const target of await page.locator('[data-reveal]').all()) {
    await expect(target).toHaveCSS('opacity', '1')
  }
})

test('without IntersectionObserver every reveal target is shown', async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { IntersectionObserver?: unknown }).IntersectionObserver
  })
  await loadHome(page)
  await expect(page.locator('html')).not.toHaveClass(/js-reveal/)
  for (const target of await page.locator('[data-reveal]').all()) {
    await expect(target).toHaveAttribute('data-revealed')
    await expect(target).toHaveCSS('opacity', '1')
  }
})
