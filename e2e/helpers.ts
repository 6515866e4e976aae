import type { Page } from '@playwright/test'

/** Background colours of `<body>` in each theme (src/styles.css `--bg`). */
export const LIGHT_BG = 'rgb(255, 255, 255)'
export const DARK_BG = 'rgb(15, 20, 26)'
/** `--accent` in the dark theme. */
export const DARK_ACCENT = 'rgb(140, 180, 255)'

/**
 * Writes localStorage entries for the app's origin before the app is loaded, by visiting a plain
 * file of the same origin (no app code runs there).
 */
export async function seedStorage(page: Page, entries: Record<string, string>): Promise<void> {
  await page.goto('/favicon.svg')
  await page.evaluate((values) => {
    for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value)
  }, entries)
}

/** Computed background colour of `<body>`. */
export function bodyBackground(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor)
}

/**
 * Waits two animation frames: IntersectionObserver callbacks are delivered during the rendering
 * step, so after this any reveal the current scroll position causes has happened. Used before
 * asserting that something was NOT revealed (no fixed sleeps).
 */
export async function settleFrames(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  )
}

/** Waits until the client app has started (hydrated or rendered). */
export async function appStarted(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.getAttribute('data-app') === 'live')
}
