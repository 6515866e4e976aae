import { expect, test } from '@playwright/test'
import { appStarted } from './helpers.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { signInWithTestWallet } from './support/sign-in.ts'

// The console's Syncs section against the real server, whose site module declares one sync of
// the Emitter contract into `Activity` (support/sync-module.mjs): it is listed with its progress
// and its class is one click away.

test.use({ reducedMotion: 'reduce' })

test('an admin sees the contract syncs with their progress and opens a synced class', async ({
  page,
}) => {
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
  await expectNoSeriousAxeViolations(page)

  await row.getByRole('link', { name: 'Activity' }).click()
  await expect(page).toHaveURL(/\/admin\/objects\?class=Activity$/)
  await expect(page.getByRole('main')).toContainText('Activity')
})
