import { expect, test, type Browser, type Page } from '@playwright/test'
import { appStarted } from './helpers.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { signInWithTestWallet } from './support/sign-in.ts'

// The admin console against the real server: anvil account 0 is in ADMIN_ADDRESSES, account 2
// in VIEWER_ADDRESSES, account 1 in neither (playwright.config.ts).

test.use({ reducedMotion: 'reduce' })

const sections = [
  ['Overview', '/admin'],
  ['Users', '/admin/users'],
  ['Objects', '/admin/objects'],
  ['Files', '/admin/files'],
  ['API keys', '/admin/keys'],
  ['Settings', '/admin/settings'],
  ['Audit log', '/admin/audit'],
  ['Import', '/admin/import'],
] as const

/** The theme picked in the header (or, where the header folds it away, as the picker stores it). */
async function chooseTheme(page: Page, scheme: 'light' | 'dark') {
  const radio = page.getByRole('radio', {
    name: scheme === 'light' ? 'Light' : 'Dark',
    exact: true,
  })
  if (await radio.isVisible()) return radio.check()
  await page.evaluate((choice) => localStorage.setItem('theme', choice), scheme)
  await page.reload()
  await appStarted(page)
}

/** A request from inside the page (same origin, the page's session cookie). */
function inPage(page: Page, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const answer = await fetch(url, {
        method,
        credentials: 'include',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await answer.text()
      return { status: answer.status, text }
    },
    { method, url, body },
  )
}

const MEMBER_DEVICE = 'Mozilla/5.0 (X11; Linux x86_64) PorticoConsoleTestMember/1.0'

/** A member (account 1) with two notes and an uploaded picture, signed in in a browser of their own. */
async function memberWithData(browser: Browser) {
  // A device of its own, to find this session among the others of account 1 (other tests sign
  // in with it at the same time on the same server).
  const context = await browser.newContext({ userAgent: MEMBER_DEVICE })
  const page = await context.newPage()
  await signInWithTestWallet(page, 1)
  for (const [title, score] of [
    ['first note', 1],
    ['second note', 7],
  ] as const)
    expect(
      (await inPage(page, 'POST', '/api/classes/Note', { data: { title, score } })).status,
    ).toBe(201)
  const png =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
  const uploaded = await page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
    const answer = await fetch('/api/files/dot.png', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'image/png' },
      body: bytes,
    })
    return answer.status
  }, png)
  expect(uploaded).toBe(201)
  return { context, page }
}

test('an admin browses, edits, exports and deletes an object, revokes a session and an API key, and sees it all in the audit log', async ({
  browser,
  page,
  request,
}) => {
  // 32 axe runs (8 sections, two widths, two themes) take most of it on a busy 2-core machine.
  test.setTimeout(420_000)
  const member = await memberWithData(browser)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await signInWithTestWallet(page, 0)
  await page.goto('/admin')
  await appStarted(page)
  await expect(page.getByRole('heading', { level: 1, name: 'Console' })).toBeVisible()
  await expect(page.getByRole('table', { name: 'Objects by class' })).toContainText('Note')

  // Every section, in light and dark, wide and at 768 px: no serious accessibility problem.
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 })
    for (const [label, path] of sections) {
      await page
        .getByRole('navigation', { name: 'Console sections' })
        .getByRole('link', { name: label })
        .click()
      // The data browser writes its class into the address.
      await expect(page).toHaveURL(new RegExp(`${path}(\\?class=\\w+)?$`))
      await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible()
      for (const scheme of ['light', 'dark'] as const) {
        await chooseTheme(page, scheme)
        await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
        await expectNoSeriousAxeViolations(page)
        if (width === 768 && scheme === 'dark' && label === 'Users')
          await page.screenshot({ path: '/tmp/portico-admin-768-dark.png', fullPage: true })
      }
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 })
  await chooseTheme(page, 'light')

  // Objects: filter with the query language, open, edit with validation, save.
  await page.goto('/admin/objects')
  await page.getByLabel('Class').selectOption('Note')
  await page.getByRole('radio', { name: 'JSON where' }).check()
  await page.getByLabel('Filter (where, as JSON)').fill('{"score": {"$gte": 5}}')
  await page.getByRole('button', { name: 'Apply filter' }).click()
  const table = page.getByRole('grid', { name: 'Objects of Note' })
  await expect(table.getByRole('row')).toHaveCount(2)
  await expect(table).toContainText('second note')
  await table.getByRole('button', { name: /^Open / }).click()
  const record = page.getByLabel('Record (JSON)')
  await record.fill('{"title": "second note", "score": ')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByRole('alert')).toContainText('The JSON is not valid')
  await record.fill('{"title": "second note, edited", "score": 8}')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(table).toContainText('second note, edited')
  await page.screenshot({ path: '/tmp/portico-admin-objects.png', fullPage: true })

  // Export what the filter selects, as CSV.
  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Export CSV' }).click()
  const csv = await (await download).createReadStream()
  let text = ''
  for await (const chunk of csv) text += String(chunk)
  expect(text.split('\r\n')[0]).toBe('objectId,owner,publicRead,createdAt,updatedAt,score,title')
  expect(text).toContain('second note, edited')
  expect(text).not.toContain('first note')

  // Delete, after confirming.
  await table.getByRole('button', { name: /^Open / }).click()
  await page.getByRole('button', { name: 'Delete…' }).click()
  await page.getByRole('button', { name: 'Yes, delete' }).click()
  await expect(page.getByText('No objects match this filter.')).toBeVisible()

  // Files: the member's picture, previewed.
  await page.goto('/admin/files')
  await expect(page.getByRole('img', { name: 'Preview of dot.png' }).first()).toBeVisible()

  // Users: revoke the member's session; their next request is refused.
  expect((await inPage(member.page, 'GET', '/api/auth/session')).status).toBe(200)
  await page.goto('/admin/users')
  await page.getByLabel('Search by address').fill('0x7099')
  await page.getByRole('button', { name: /^Sessions of 0x7099/ }).click()
  const sessionsTable = page.getByRole('table', { name: 'Sessions' })
  await sessionsTable
    .getByRole('row', { name: /PorticoConsoleTestMember/ })
    .getByRole('button', { name: 'Revoke' })
    .click()
  await expect(page.getByRole('status')).toHaveText('The session was revoked.')
  expect((await inPage(member.page, 'GET', '/api/auth/session')).status).toBe(401)
  await member.context.close()

  // API keys: created and shown once, copied, used by the gateway, then revoked and refused.
  await page.goto('/admin/keys')
  await page.getByLabel('Label (who or what uses it)').fill('indexer')
  await page.getByRole('button', { name: 'Create key' }).click()
  const key = (await page.getByTestId('new-api-key').textContent())!
  expect(key).toMatch(/^pk_/)
  await page.getByRole('button', { name: 'Copy' }).click()
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)
  const gateway = () =>
    request.post('/api/rpc/31337', {
      headers: { 'x-api-key': key },
      data: { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
    })
  expect((await gateway()).status()).toBe(200)
  await page.getByRole('button', { name: 'Revoke indexer' }).click()
  await expect(page.getByText('The key was revoked')).toBeVisible()
  await expect(page.getByTestId('new-api-key')).toHaveCount(0)
  expect((await gateway()).status()).toBe(401)

  // The audit log has every change, newest first.
  await page.goto('/admin/audit')
  const log = page.getByRole('table', { name: 'Console changes, newest first' })
  // Other specs run by other workers change roles, classes, fields and jobs meanwhile: only the
  // targets this test touched (its Note, a session, its API key) are compared.
  const ours = (target: string | null | undefined) =>
    !!target && /^(Note|session|api_key)\//.test(target)
  const mine = async () =>
    (
      await log
        .locator('tbody tr')
        .evaluateAll((rows) =>
          rows.map((row) => [row.children[2]?.textContent, row.children[3]?.textContent]),
        )
    ).filter(([, target]) => ours(target))
  await expect
    .poll(async () => (await mine()).slice(0, 5).map(([action]) => action))
    .toEqual([
      'api_key.revoke',
      'api_key.create',
      'session.revoke',
      'object.delete',
      'object.update',
    ])
  const update = log
    .locator('tbody tr')
    .filter({ hasText: 'object.update' })
    .filter({ hasText: /Note\// })
    .first()
  await update.getByText('Show').click()
  await expect(update.locator('pre')).toContainText('second note, edited')
  await expect(update.locator('pre')).toContainText('"score": 7')
  await page.screenshot({ path: '/tmp/portico-admin-audit.png', fullPage: true })
})

test('a viewer sees everything and changes nothing: the API refuses every write', async ({
  page,
}) => {
  await signInWithTestWallet(page, 2)
  await page.goto('/admin/objects')
  await appStarted(page)
  await expect(page.getByText('Viewer: you can look, not change')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Create class…' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Add row…' })).toHaveCount(0)
  await page.goto('/admin/keys')
  // The keys the admin made, or none: other tests make and revoke them meanwhile.
  await expect(page.getByRole('region', { name: 'API keys' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Revoke / })).toHaveCount(0)
  for (const [method, url, body] of [
    ['POST', '/api/admin/api-keys', { label: 'mine' }],
    ['PUT', '/api/admin/classes/Note/abc', { data: { title: 'x' } }],
    ['DELETE', '/api/admin/classes/Note/abc', undefined],
    ['POST', '/api/admin/import/Note', { results: [] }],
    ['POST', '/api/admin/classes', { name: 'ByViewer' }],
    ['POST', '/api/admin/classes/ByViewer', { data: { title: 'x' } }],
  ] as const) {
    const answer = await inPage(page, method, url, body)
    expect(answer.status, `${method} ${url}`).toBe(403)
    expect(JSON.parse(answer.text).error.code).toBe('read_only')
  }
  await expectNoSeriousAxeViolations(page)
})

test('a signed-in non-admin and a visitor are refused, and the page says so', async ({ page }) => {
  await page.goto('/admin')
  await appStarted(page)
  // A visitor simply needs to sign in: asked to, not refused.
  await expect(page.getByRole('heading', { name: 'Sign in first' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Sign in' }).last()).toBeVisible()
  await expectNoSeriousAxeViolations(page)

  await signInWithTestWallet(page, 1)
  await page.goto('/admin/users')
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible()
  await expect(page.getByText(/is only for this site.s team/)).toBeVisible()
  await expect(page.getByRole('table')).toHaveCount(0)
  expect((await inPage(page, 'GET', '/api/admin/users')).status).toBe(403)
  await expectNoSeriousAxeViolations(page)
})
