import { expect, test } from '@playwright/test'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import {
  DARK_ACCENT,
  DARK_BG,
  LIGHT_BG,
  appStarted,
  bodyBackground,
  seedStorage,
} from './helpers.ts'

// "Theme": light/dark/system kept in localStorage["theme"], default light, applied
// before first paint, followed live and across tabs.

test('a fresh profile is light, and the chosen theme survives a reload under "theme"', async ({
  page,
}) => {
  // Even an OS that prefers dark gets light by default: the default is light, not system.
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto('/')
  await appStarted(page)
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  expect(await bodyBackground(page)).toBe(LIGHT_BG)
  await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked()
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull()

  await page.getByRole('radio', { name: 'Dark' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark')

  await page.reload()
  await appStarted(page)
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked()
  expect(await bodyBackground(page)).toBe(DARK_BG)
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark')
})

test('a stored dark theme paints the very first frame dark, before the app bundle runs', async ({
  page,
}) => {
  await seedStorage(page, { theme: 'dark' })
  // Hold every script file until the first frame has been checked.
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/assets/*.js', async (route) => {
    await released
    await route.continue()
  })

  await page.goto('/', { waitUntil: 'commit' })
  await page.locator('h1').waitFor()
  // The stylesheet is render-blocking: wait until it applies, then read what gets painted.
  await page.waitForFunction(
    () => getComputedStyle(document.body).backgroundColor !== 'rgba(0, 0, 0, 0)',
  )
  expect(await page.evaluate(() => document.documentElement.hasAttribute('data-app'))).toBe(false)
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  expect(await bodyBackground(page)).toBe(DARK_BG)
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe(
    'dark',
  )
  // The pre-rendered theme control already shows "Dark" as the choice.
  await expect(page.locator('.theme-option[data-value="dark"] span')).toHaveCSS(
    'background-color',
    DARK_ACCENT,
  )

  release()
  await appStarted(page)
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked()
  expect(await bodyBackground(page)).toBe(DARK_BG)
})

test('"system" follows a change of the OS colour scheme without a reload', async ({ page }) => {
  await seedStorage(page, { theme: 'system' })
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto('/')
  await appStarted(page)
  await expect(page.getByRole('radio', { name: 'System' })).toBeChecked()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true))

  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  expect(await bodyBackground(page)).toBe(DARK_BG)

  await page.emulateMedia({ colorScheme: 'light' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  expect(
    await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
  ).toBe(true)
})

test('an invalid stored value means light', async ({ page }) => {
  await seedStorage(page, { theme: 'purple' })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto('/')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  await appStarted(page)
  await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked()
  expect(await bodyBackground(page)).toBe(LIGHT_BG)
})

test('a theme change in one tab reaches another open tab', async ({ context }) => {
  const first = await context.newPage()
  const second = await context.newPage()
  await first.goto('/')
  await second.goto('/account')
  await appStarted(first)
  await appStarted(second)

  await first.getByRole('radio', { name: 'Dark' }).click()
  await expect(second.locator('html')).toHaveAttribute('data-theme', 'dark')
  await expect(second.getByRole('radio', { name: 'Dark' })).toBeChecked()

  await second.getByRole('radio', { name: 'Light' }).click()
  await expect(first.locator('html')).toHaveAttribute('data-theme', 'light')
  await expect(first.getByRole('radio', { name: 'Light' })).toBeChecked()
})

test('the theme control is a named radio group usable from the keyboard', async ({ page }) => {
  await page.goto('/')
  await appStarted(page)
  const group = page.getByRole('group', { name: 'Colour theme' })
  await expect(group.getByRole('radio')).toHaveCount(3)

  await group.getByRole('radio', { name: 'Light' }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(group.getByRole('radio', { name: 'Dark' })).toBeChecked()
  await expect(group.getByRole('radio', { name: 'Dark' })).toBeFocused()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.keyboard.press('ArrowRight')
  await expect(group.getByRole('radio', { name: 'System' })).toBeChecked()
})

test('when storage throws, the app still works and holds the theme in memory', async ({ page }) => {
  const errors: Error[] = []
  page.on('pageerror', (error) => errors.push(error))
  await page.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('Storage is disabled', 'SecurityError')
      },
    })
  })
  await page.goto('/')
  await appStarted(page)
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')

  await page.getByRole('radio', { name: 'Dark' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  // Navigation inside the app keeps the in-memory choice.
  await page.getByRole('link', { name: 'Account' }).first().click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  expect(errors).toEqual([])
})

test('the API documentation is linked from every page and follows the chosen theme', async ({
  page,
}) => {
  // The docs page renders the whole interactive reference: axe takes its time there.
  test.setTimeout(90_000)
  // Nothing on the way (the app, the docs page, its reference) is refused by the page's policy,
  // and nothing is even asked of another host: fonts, proxies and registries included.
  const refusals: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refusals.push(message.text())
  })
  const elsewhere: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (/^(data|blob):$/.test(url.protocol)) return
    if (url.hostname !== '127.0.0.1') elsewhere.push(request.url())
  })
  await seedStorage(page, { theme: 'dark' })
  await page.goto('/analytics')
  await appStarted(page)
  await page.getByRole('contentinfo').getByRole('link', { name: 'API documentation' }).click()
  await expect(page).toHaveURL(/\/api\/docs$/)
  // The interactive reference replaces the plain page's heading once its bundle (megabytes) ran.
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Portico API', {
    timeout: 30_000,
  })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  expect(
    await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor),
  ).toBe('rgb(15, 20, 26)')
  await page.evaluate(() => localStorage.setItem('theme', 'light'))
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Portico API', {
    timeout: 30_000,
  })
  // The interactive reference (#reference) takes axe minutes to walk whole: its own spec
  // (api-reference.spec.ts) checks its parts; here the page around it.
  await expectNoSeriousAxeViolations(page, {
    exclude: ['#reference', 'aside[aria-label^="Sidebar"]'],
  })
  // The interactive reference replaces the plain page and its back link: back by address.
  await page.goto('/')
  await expect(page).toHaveURL(/\/$/)
  expect(refusals).toEqual([])
  expect(elsewhere).toEqual([])
})
