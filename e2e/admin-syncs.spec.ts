import { expect, test, type Page } from '@playwright/test'
import { appStarted } from './helpers.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { signInWithTestWallet } from './support/sign-in.ts'

// The console's Syncs section against the real server, whose site module declares one sync of
// the Emitter contract into `Activity` (support/sync-module.mjs): it is listed with its progress
// and its class is one click away.

test.use({ reducedMotion: 'reduce' })

const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)

async function useTheme(page: Page, scheme: 'light' | 'dark') {
  await page.evaluate((choice) => localStorage.setItem('theme', choice), scheme)
  await page.reload()
  await appStarted(page)
  await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
}

test('an admin sees the contract syncs with their progress and opens a synced class', async ({
  page,
}) => {
  // Four axe runs (two widths, two themes) on a busy machine.
  test.setTimeout(120_000)
  await signInWithTestWallet(page, 0)
  await page.goto('/admin')
  await appStarted(page)
  await page
    .getByRole('navigation', { name: 'Console sections' })
    .getByRole('link', { name: 'Syncs' })
    .click()
  await expect(page).toHaveURL(/\/admin\/syncs$/)
  const table = page.getByRole('table', { name: 'Contract-event syncs' })
  const row = table.getByRole('row', { name: /Activity/ })
  await expect(row).toContainText('Site')
  await expect(row).toContainText('Transfer, Note')
  await expect(row).toContainText('31337')
  await expect(row).toContainText('this process')
  for (const width of [1280, 320]) {
    await page.setViewportSize({ width, height: 900 })
    for (const scheme of ['light', 'dark'] as const) {
      await useTheme(page, scheme)
      await expect(table.getByRole('row', { name: /Activity/ })).toContainText('Transfer, Note')
      expect(await scrollsSideways(page), `${width} ${scheme}`).toBe(false)
      await expectNoSeriousAxeViolations(page)
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 })

  await row.getByRole('link', { name: 'Activity' }).click()
  await expect(page).toHaveURL(/\/admin\/objects\?class=Activity$/)
  await expect(page.getByRole('main')).toContainText('Activity')
  // The synced class's defaults: its sync writes it, everyone reads it (the sync's publicRead).
  await page.getByText('Class defaults').click()
  const defaults = page.locator('.class-defaults')
  await expect(defaults).toContainText('The contract sync')
  await expect(defaults).toContainText('alone')
  await expect(defaults.locator('dd').nth(2)).toHaveText('Reads it')
})
