import { expect, test, type Page } from '@playwright/test'
import { seriousAxe } from './support/axe.ts'

// /api/docs: Scalar's API reference from the server's own copy of its npm package, with search,
// collapsible operations and try-it, in both themes, at 1280 and 320 px.

test.use({ reducedMotion: 'reduce' })

const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)

/**
 * axe on the reference's sidebar and its first sections: the whole reference renders every
 * operation of the API, which axe takes minutes to walk on a small machine.
 */
async function noSeriousViolations(page: Page) {
  const results = await seriousAxe(page)
    .include('#reference nav')
    .include('#reference main section:first-of-type')
    .analyze()
  const blocking = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      targets: violation.nodes.map((n) => n.target.join(' ')),
    }))
  expect(blocking).toEqual([])
}

/**
 * Try-it: a real request to this server from the page's API client, which then passes axe in the
 * state it is in (answer shown) and closes on Escape.
 */
async function tryIt(page: Page, label: string) {
  await page.getByRole('button', { name: 'Test Request (get /api/version)' }).click()
  const client = page.getByRole('dialog').last()
  await client.getByRole('button', { name: /^Send/ }).first().click()
  await expect(client.getByText(/"server"/).first(), label).toBeVisible({ timeout: 20_000 })
  await expect(client.getByText('200', { exact: false }).first(), label).toBeVisible()
  expect(
    await scrollsSideways(page),
    `${label}: the client fits the screen without sideways scrolling`,
  ).toBe(false)
  const results = await seriousAxe(page).include('[role="dialog"]').analyze()
  expect(
    results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id),
    label,
  ).toEqual([])
  await page.keyboard.press('Escape')
  await expect(client, label).toBeHidden()
}

async function openDocs(page: Page, scheme: 'light' | 'dark') {
  await page.goto('/favicon.svg')
  await page.evaluate((choice) => localStorage.setItem('theme', choice), scheme)
  await page.goto('/api/docs')
  await expect(page.getByRole('heading', { level: 1, name: 'Portico API' })).toBeVisible({
    timeout: 30_000,
  })
  await expect(page.locator('#docs-plain')).toBeHidden()
  await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
}

// The four views are independent pages: they run side by side on separate workers.
test.describe.configure({ mode: 'parallel' })

/**
 * Follows the page's requests, policy refusals and errors; `check` asserts that the reference
 * asked nothing of another host (fonts, proxies, registries), that its policy refused nothing
 * and that nothing failed: it runs from this server alone.
 */
function watch(page: Page) {
  const requests: string[] = []
  page.on('request', (request) => requests.push(request.url()))
  const refusals: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refusals.push(message.text())
  })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  return {
    check() {
      const origin = new URL(page.url()).origin
      expect(
        requests.filter((url) => !url.startsWith(origin) && !/^(data|blob):/.test(url)),
      ).toEqual([])
      expect(refusals).toEqual([])
      expect(errors).toEqual([])
    },
  }
}

test('the API reference searches, folds operations and tries a request, offline from its own copy', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const watched = watch(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  await openDocs(page, 'light')
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg')

  // Collapsible: a folded group of operations unfolds.
  const sidebar = page.getByRole('navigation', { name: 'Sidebar for Portico API' })
  await sidebar.getByRole('button', { name: 'auth Open Group' }).click()
  await expect(sidebar.getByRole('button', { name: 'auth Close Group' })).toHaveAttribute(
    'aria-expanded',
    'true',
  )
  await expect(
    sidebar.getByRole('button', { name: /Sign in with a signed EIP-4361/ }),
  ).toBeVisible()

  // Search.
  await sidebar.getByRole('search').click()
  const search = page.getByRole('dialog')
  await search.getByRole('combobox').or(search.getByRole('textbox')).first().fill('Upload a file')
  await expect(search.getByText(/Upload a file/).first()).toBeVisible()
  await page.keyboard.press('Escape')

  await tryIt(page, 'light 1280')
  await page.screenshot({ path: '/tmp/portico-docs-1280.png' })
  await page.setViewportSize({ width: 1280, height: 800 })
  await openDocs(page, 'light')
  expect(await scrollsSideways(page), '1280 light').toBe(false)
  await noSeriousViolations(page)
  watched.check()
})

for (const [width, scheme] of [
  [1280, 'dark'],
  [320, 'light'],
  [320, 'dark'],
] as const) {
  test(`the API reference at ${width} px in the ${scheme} theme: no sideways page, no serious axe violation, try-it works`, async ({
    page,
  }) => {
    test.setTimeout(240_000)
    const watched = watch(page)
    await page.setViewportSize({ width, height: 800 })
    await openDocs(page, scheme)
    expect(await scrollsSideways(page), `${width} ${scheme}`).toBe(false)
    await noSeriousViolations(page)
    await tryIt(page, `${scheme} ${width}`)
    if (width === 320 && scheme === 'dark') {
      await page.screenshot({ path: '/tmp/portico-docs-320-dark.png' })
    }
    watched.check()
  })
}
