import { expect, test, type Page } from '@playwright/test'
import { appStarted } from './helpers.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { eventAccepted, navigate, signInWithTestWallet } from './support/sign-in.ts'

// The events dashboard and first-party tracking, against the real server: the e2e
// server's ADMIN_ADDRESSES is the test wallet's first anvil account (playwright.config.ts).

// Every reveal target shows at once, so screenshots and contrast checks see the whole page.
test.use({ reducedMotion: 'reduce' })

/** Runs after the browser's idle callbacks queued so far (tracking and the version check). */
async function idleWorkDone(page: Page) {
  for (let i = 0; i < 2; i++) {
    await page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          requestIdleCallback(() => setTimeout(resolve, 0), { timeout: 2000 }),
        ),
    )
  }
  await page.waitForLoadState('networkidle')
}

test('page views and a sign-in appear on the dashboard for an admin (light and dark)', async ({
  page,
}) => {
  const homeView = eventAccepted(page, 'page_view')
  const signIn = eventAccepted(page, 'sign_in')
  await signInWithTestWallet(page, 0)
  await homeView
  await signIn

  await navigate(page, 'Analytics')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Analytics')
  await page.getByRole('radio', { name: 'Last 24 hours' }).check()

  const top = page.getByRole('table', { name: 'Top events' })
  await expect(top.getByRole('row', { name: /page_view/ })).toBeVisible()
  await expect(top.getByRole('row', { name: /sign_in/ })).toBeVisible()
  await expect(page.getByRole('table', { name: 'Subdomains' })).toContainText('127.0.0.1')
  // The chart drew, and its text alternative names what it shows (the events' chart is the first).
  const eventsCard = page.locator('.dashboard-chart').first()
  await expect(eventsCard.locator('canvas')).toBeVisible()
  await expect(eventsCard.locator('figcaption')).toHaveText(/\d+ events over 24 hours/)
  await eventsCard.getByText('Show the numbers as a table').click()
  await expect(page.getByRole('table', { name: 'Events per hour' })).toBeVisible()
  await eventsCard.getByText('Show the numbers as a table').click()

  // The subdomain filter asks the server again, for that subdomain only.
  const filtered = page.waitForRequest(
    (request) =>
      request.url().includes('/api/events/stats?') && request.url().includes('subdomain=127.0.0.1'),
  )
  await page.getByLabel('Subdomain').selectOption('127.0.0.1')
  await filtered
  await expect(top.getByRole('row', { name: /sign_in/ })).toBeVisible()

  for (const theme of ['Light', 'Dark'] as const) {
    await page.getByRole('radio', { name: theme, exact: true }).check()
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme.toLowerCase())
    await expect(eventsCard.locator('canvas')).toBeVisible()
    await expectNoSeriousAxeViolations(page)
    await page.screenshot({
      path: `/tmp/portico-dashboard-${theme.toLowerCase()}.png`,
      fullPage: true,
    })
  }
})

for (const width of [320, 1280]) {
  test(`unique visitors, top pages, referrers and devices from the page views (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 })
    // A visit from another site: the page view tells the referring host, not its path.
    await page.setExtraHTTPHeaders({ referer: 'https://news.example/item?id=7' })
    const told = page.waitForRequest(
      (request) =>
        new URL(request.url()).pathname === '/api/events' &&
        (request.postDataJSON() as { event: string }).event === 'page_view',
    )
    const homeView = eventAccepted(page, 'page_view')
    await signInWithTestWallet(page, 0)
    const options = (await told).postDataJSON().options
    expect(options).toEqual({ path: '/', referrer: 'news.example', device: 'desktop' })
    await homeView
    await page.setExtraHTTPHeaders({})
    await page.goto('/analytics')
    await page.getByRole('radio', { name: 'Last 24 hours' }).check()

    const visitors = page.locator('.audience .dashboard-chart')
    await expect(visitors.getByRole('heading', { level: 3 })).toContainText('Unique visitors')
    await expect(visitors.locator('.total')).toHaveText(
      /^[1-9]\d* visitors?, [1-9]\d* page views?$/,
    )
    await expect(visitors.locator('canvas')).toBeVisible()
    await expect(visitors.locator('figcaption')).toHaveText(/\d+ visitors? over 24 hours/)
    await expect(
      page.getByRole('table', { name: 'Top pages' }).getByRole('row', { name: /^\/ / }),
    ).toBeVisible()
    await expect(page.getByRole('table', { name: 'Referrers' })).toContainText('news.example')
    await expect(page.getByRole('table', { name: 'Devices' })).toContainText('Desktop')
    // The site syncs contract events into Activity (playwright.config.ts): Recent activity shows.
    await expect(page.getByRole('heading', { name: 'Recent activity' })).toBeVisible()

    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => localStorage.setItem('theme', value), theme)
      await page.reload()
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
      await expect(visitors.locator('canvas')).toBeVisible()
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width)
      await expectNoSeriousAxeViolations(page)
      await page.locator('.audience').screenshot({
        path: `/tmp/portico-audience-${theme}-${width}.png`,
      })
    }
  })
}

test('a non-admin is refused with a clear message', async ({ page }) => {
  await signInWithTestWallet(page, 1)
  // Not linked for them, and refused without a request the server would answer 403.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
    'Home',
    'Account',
  ])
  const refused: string[] = []
  page.on('response', (response) => response.status() === 403 && refused.push(response.url()))
  await page.goto('/analytics')
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible()
  expect(refused).toEqual([])
  await expect(page.getByRole('table')).toHaveCount(0)
  await expectNoSeriousAxeViolations(page)
})

test('a signed-out visitor is asked to sign in', async ({ page }) => {
  await page.goto('/analytics')
  await appStarted(page)
  await expect(page.getByText(/sign in/i).first()).toBeVisible()
  await expect(page.getByRole('table')).toHaveCount(0)
})

test('without a privacy signal, route changes are tracked as page views', async ({ page }) => {
  const paths: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/events' && request.method() === 'POST')
      paths.push((request.postDataJSON() as { options: { path: string } }).options.path)
  })
  const first = eventAccepted(page, 'page_view')
  // On start the app also asks which SDK is the latest (the e2e server's is this one: no notice).
  const versionChecked = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/version' && response.ok(),
  )
  await page.goto('/')
  await appStarted(page)
  await first
  await versionChecked
  await navigate(page, 'Account')
  await idleWorkDone(page)
  expect(paths).toEqual(['/', '/account'])
  await expect(page.getByRole('status', { name: 'SDK version' })).toHaveCount(0)
})

for (const [signal, script] of [
  [
    'Do-Not-Track',
    () => Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' }),
  ],
  [
    'Global Privacy Control',
    () => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
  ],
] as const) {
  test(`with ${signal} no event request is sent, not even for a sign-in`, async ({ page }) => {
    await page.addInitScript(script)
    const events: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/events') events.push(request.url())
    })
    await signInWithTestWallet(page, 1)
    await navigate(page, 'Account')
    await navigate(page, 'Home')
    await idleWorkDone(page)
    expect(events).toEqual([])
  })
}
