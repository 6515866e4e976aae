import { expect, test } from '@playwright/test'
import { appStarted, seedStorage } from './helpers.ts'
import { seriousAxe } from './support/axe.ts'

// every page passes axe-core with no serious or critical violation, in light and
// dark. Reduced motion makes every reveal target visible, so colour contrast is checked on all.
test.use({ reducedMotion: 'reduce' })

const PATHS = [
  '/',
  '/account',
  '/analytics',
  '/u/0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '/no-such-page',
]

for (const width of [320, 1280]) {
  for (const theme of ['light', 'dark'] as const) {
    for (const path of PATHS) {
      test(`${path} has no serious or critical axe violations (${theme}, ${width} px)`, async ({
        page,
      }) => {
        await page.setViewportSize({ width, height: 800 })
        await seedStorage(page, { theme })
        await page.goto(path)
        await appStarted(page)
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme)

        const results = await seriousAxe(page).analyze()
        const blocking = results.violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => ({
            id: violation.id,
            impact: violation.impact,
            targets: violation.nodes.map((node) => node.target.join(' ')),
          }))
        expect(blocking).toEqual([])
      })
    }
  }
}

test('keyboard focus is visible on links and the theme control', async ({ page }) => {
  await page.goto('/')
  await appStarted(page)
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Portico', exact: true })).toBeFocused()
  await expect(page.getByRole('link', { name: 'Portico', exact: true })).toHaveCSS(
    'outline-style',
    'solid',
  )
  const radio = page.getByRole('radio', { name: 'Light' })
  await radio.focus()
  await page.keyboard.press('ArrowLeft') // wraps to System; focus ring drawn on its label
  await expect(page.getByRole('radio', { name: 'System' })).toBeFocused()
  await expect(page.locator('.theme-option input:focus-visible + span')).toHaveCSS(
    'outline-style',
    'solid',
  )
})
