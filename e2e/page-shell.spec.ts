import { expect, test } from '@playwright/test'
import { appStarted } from './helpers.ts'

// "Page shell": one route (the app wrapper) resolving pages from the page table, each
// with its own title and body class; Home pre-rendered and hydrated, other paths rendered.

test('navigation swaps the body class: the old page class goes, foreign classes stay', async ({
  page,
}) => {
  await page.goto('/')
  await appStarted(page)
  await expect(page.locator('body')).toHaveClass('page-home')
  await page.evaluate(() => document.body.classList.add('foreign-widget'))

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Account' })
    .click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
  await expect(page.locator('body')).toHaveClass(/(^| )page-account( |$)/)
  await expect(page.locator('body')).not.toHaveClass(/page-home/)
  await expect(page.locator('body')).toHaveClass(/(^| )foreign-widget( |$)/)

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Your wallet is your account/)
  const classes = (await page.locator('body').getAttribute('class'))?.split(' ').sort()
  expect(classes).toEqual(['foreign-widget', 'page-home'])

  await page.goBack()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
  await expect(page.locator('body')).toHaveClass(/(^| )page-account( |$)/)
  await expect(page.locator('body')).not.toHaveClass(/page-home/)
})

test('every page sets its own document title', async ({ page }) => {
  const expected: Array<[string, string, RegExp]> = [
    ['/', 'Portico', /Your wallet is your account here/],
    ['/account', 'Account · Portico', /Your account/],
    ['/analytics', 'Analytics · Portico', /Analytics/],
    ['/no/such/page', 'Page not found · Portico', /Page not found/],
  ]
  for (const [path, title, heading] of expected) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
    await expect(page).toHaveTitle(title)
  }
})

test('Home is pre-rendered into the HTML and hydrated without errors', async ({
  page,
  request,
}) => {
  const html = await (await request.get('/')).text()
  expect(html).toContain('Your wallet is your account here')
  expect(html).toContain('<body class="page-home">')
  // This build has WalletConnect's key and no email or social vendor: the copy offers that alone.
  expect(html).toContain('Connect a browser wallet or a phone wallet, sign one short message')
  expect(html).not.toMatch(/your email|email link|social account/)

  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  await page.goto('/')
  await appStarted(page)
  // Interactive after hydration: client-side navigation works without a page load.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1))
  await page.getByRole('link', { name: 'Go to your account' }).first().click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1)
  expect(problems).toEqual([])
})

test('a direct load of another path renders that page, not the pre-rendered Home', async ({
  page,
}) => {
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  await page.goto('/analytics')
  await appStarted(page)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Analytics')
  await expect(page.getByText('Your wallet is your account here')).toHaveCount(0)
  await expect(page.locator('body')).toHaveClass('page-analytics')

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Your wallet is your account here',
  )
  expect(problems).toEqual([])
})

test('an unknown path answers 404 and shows Not found with a way back home', async ({ page }) => {
  const response = await page.goto('/definitely/not/here')
  expect(response?.status()).toBe(404)
  await expect(page).toHaveTitle('Page not found · Portico')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found')
  await expect(page.getByText('/definitely/not/here')).toBeVisible()
  await page.getByRole('main').getByRole('link', { name: 'Back to the home page' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Your wallet is your account here',
  )
})

test("each page's served HTML carries its own title, description and link previews", async ({
  request,
}) => {
  for (const [path, title, description] of [
    ['/', 'Portico', /this site’s own server/],
    ['/account', 'Account · Portico', /your sessions and your profile/],
    ['/analytics', 'Analytics · Portico', /Page views, sign-ins and events/],
    ['/u/0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 'Wallet · Portico', /A wallet address/],
  ] as const) {
    const response = await request.get(path)
    expect(response.status(), path).toBe(200)
    const html = await response.text()
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1], path).toBe(title)
    for (const name of [
      'name="description"',
      'property="og:description"',
      'name="twitter:description"',
    ]) {
      const tag = new RegExp(`<meta\\s+${name}\\s+content="([^"]*)"`).exec(html)?.[1]
      expect(tag, `${path} ${name}`).toMatch(description)
    }
    expect(/<meta\s+property="og:title"\s+content="([^"]*)"/.exec(html)?.[1]).toBe(title)
  }
})

test('a page with a route parameter is served with its own title and body class', async ({
  page,
}) => {
  const response = await page.goto('/u/0x70997970c51812dc3a010c7d01b50e0d17dc79c8')
  expect(response?.status()).toBe(200)
  await expect(page).toHaveTitle('Wallet · Portico')
  await expect(page.locator('body')).toHaveClass('page-address')
  await expect(page.getByTestId('page-address')).toHaveText(
    '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  )
  // A parameter that is not an address is no page at all: Not found, with 404.
  const notFound = await page.goto('/u/not-an-address')
  expect(notFound?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found')
  await expect(page.locator('body')).toHaveClass('page-not-found')
  // So is a console section that does not exist.
  expect((await page.goto('/admin/no-such-section'))?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found')
  expect((await page.goto('/admin/users'))?.status()).toBe(200)
})

test('robots.txt and sitemap.xml come from the page table', async ({ request, baseURL }) => {
  const robots = await request.get('/robots.txt')
  expect(robots.status()).toBe(200)
  // The console is the team's tool: closed to search engines. Account and Analytics may be
  // fetched (a link to them gets their title and description) but are not in the sitemap.
  const rules = (await robots.text()).split('\n')
  expect(rules).toContain('Disallow: /admin')
  expect(rules).not.toContain('Disallow: /account')
  expect(rules).not.toContain('Disallow: /analytics')
  const sitemap = await (await request.get('/sitemap.xml')).text()
  expect(sitemap).toContain(`<loc>${baseURL}/</loc>`)
  expect(sitemap).not.toContain('/account')
  expect(sitemap).not.toContain('/analytics')
  expect(sitemap).not.toContain('/admin')
})

test('a page whose code fails to load shows a friendly error with a way back', async ({ page }) => {
  await page.goto('/')
  await appStarted(page)
  // Analytics: Account's code only loads for signed-in users.
  await page.route('**/assets/analytics-*.js', (route) => route.abort())
  // A client-side route change, as a link in a page would make (Analytics is not in a visitor's
  // navigation).
  await page.evaluate(() => {
    history.pushState(null, '', '/analytics')
    dispatchEvent(new PopStateEvent('popstate'))
  })
  const alert = page.getByRole('alert')
  await expect(alert.getByRole('heading', { name: 'Something went wrong' })).toBeVisible()
  await alert.getByRole('link', { name: 'Back to the home page' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Your wallet is your account here',
  )
})

test('Home paints before it fetches a script, then hydrates with its chunk preloaded', async ({
  page,
}) => {
  await page.goto('/')
  await appStarted(page)
  const timing = await page.evaluate(() => {
    const scripts = performance
      .getEntriesByType('resource')
      .filter((entry) => /\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname))
    return {
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
      firstScript: Math.min(...scripts.map((entry) => entry.startTime)),
      preloads: [...document.querySelectorAll('link[rel="modulepreload"]')].map(
        (link) => new URL((link as HTMLLinkElement).href).pathname,
      ),
      fetched: scripts.map((entry) => new URL(entry.name).pathname),
    }
  })
  expect(timing.paint).toBeLessThan(Infinity)
  expect(timing.firstScript).toBeGreaterThanOrEqual(timing.paint)
  // The Home page's own chunk is preloaded with the entry, and fetched once.
  const home = timing.preloads.filter((file) => /\/assets\/home-[^/]+\.js$/.test(file))
  expect(home).toHaveLength(1)
  expect(timing.fetched.filter((file) => file === home[0])).toHaveLength(1)
  await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked()
})

test('loading / makes no request to any host but the server', async ({ page, baseURL }) => {
  const hosts = new Set<string>()
  page.on('request', (request) => hosts.add(new URL(request.url()).host))
  await page.goto('/', { waitUntil: 'networkidle' })
  expect([...hosts]).toEqual([new URL(baseURL!).host])
})

test('fits a 320 px wide screen without horizontal scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 })
  for (const path of ['/', '/account', '/analytics', '/missing']) {
    await page.goto(path)
    await appStarted(page)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
  }
})
