import { expect, test, type Page } from '@playwright/test'
import { appStarted } from './helpers.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { signInWithTestWallet } from './support/sign-in.ts'

// The console's Jobs and Logs against the real server running the cloud code of
// support/cloud/main.js (CLOUD_CODE in playwright.config.ts): anvil account 0 is an admin,
// account 2 a viewer.

test.use({ reducedMotion: 'reduce' })

/** The theme picked in the header (or, where the header folds it away, as the picker stores it). */
async function chooseTheme(page: Page, scheme: 'light' | 'dark') {
  const radio = page.getByRole('radio', {
    name: scheme === 'light' ? 'Light' : 'Dark',
    exact: true,
  })
  if (await radio.isVisible()) await radio.check()
  else {
    await page.evaluate((choice) => localStorage.setItem('theme', choice), scheme)
    await page.reload()
    await appStarted(page)
  }
  await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
}

/** No sideways scrolling of the page itself. */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(scroll).toBeLessThanOrEqual(client)
}

test('an admin starts a job from the console and reads its run and its log line, at 1280 and 320 px', async ({
  page,
}) => {
  test.setTimeout(240_000)
  await signInWithTestWallet(page, 0)
  for (const width of [1280, 320]) {
    await page.setViewportSize({ width, height: 900 })
    const who = `tester-${width}`
    await page.goto('/admin/jobs')
    await appStarted(page)
    await expect(page.getByRole('heading', { level: 2, name: 'Cloud code and jobs' })).toBeVisible()
    await expect(page.getByText('Functions (1)')).toBeVisible()

    const params = page.getByRole('form', { name: 'greet' }).getByLabel('Params (JSON object)')
    // Not an object: refused in the page, nothing started.
    await params.fill('[1, 2]')
    await page.getByRole('button', { name: 'Start greet' }).click()
    await expect(page.getByRole('alert')).toHaveText(/params are a JSON object/)
    await params.fill(JSON.stringify({ who }))
    await page.getByRole('button', { name: 'Start greet' }).click()
    await expect(page.getByRole('status')).toHaveText(/Started greet/)

    const run = page.locator('tr', { hasText: `said hello to ${who}` })
    // The list is read again while the run is running, until it ends.
    await expect(run.locator('.cloud-status')).toHaveText('succeeded', { timeout: 30_000 })
    await run.getByText(/^Log \(1 line, params\)$/).click()
    await expect(run.getByText(`greeted ${who}`)).toBeVisible()
    await expectNoSidewaysScroll(page)
    for (const scheme of ['light', 'dark'] as const) {
      await chooseTheme(page, scheme)
      await expectNoSeriousAxeViolations(page)
    }
    if (width === 320)
      await page.screenshot({ path: '/tmp/portico-jobs-320-dark.png', fullPage: true })

    await page
      .getByRole('navigation', { name: 'Console sections' })
      .getByRole('link', { name: 'Logs' })
      .click()
    await expect(page).toHaveURL(/\/admin\/logs$/)
    await page.getByLabel('Containing').fill(`greeted ${who}`)
    await page.getByRole('button', { name: 'Filter' }).click()
    const lines = page.getByRole('list', { name: 'Log lines, newest first' }).getByRole('listitem')
    await expect(lines).toHaveCount(1)
    await expect(lines.first()).toContainText(`greeted ${who}`)
    await expect(lines.first()).toContainText('cloud code')
    await expect(lines.first()).toContainText(/job run \S+/)
    // Warnings and errors only: the info line is filtered out.
    await page.getByLabel('Level').selectOption('warn')
    await expect(page.getByText('No line matches.')).toBeVisible()
    await page.getByLabel('Level').selectOption('info')
    await expect(lines).toHaveCount(1)
    await expectNoSidewaysScroll(page)
    for (const scheme of ['light', 'dark'] as const) {
      await chooseTheme(page, scheme)
      await expectNoSeriousAxeViolations(page)
    }
    await chooseTheme(page, 'light')
  }
})

test('a viewer sees the jobs and their runs but no Start button', async ({ page }) => {
  await signInWithTestWallet(page, 2)
  await page.goto('/admin/jobs')
  await appStarted(page)
  await expect(page.getByRole('heading', { level: 4, name: 'greet' })).toBeVisible()
  await expect(page.getByText('Viewers see the runs; an admin starts jobs.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Start greet' })).toHaveCount(0)
  await expectNoSeriousAxeViolations(page)
})
