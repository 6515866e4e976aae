import { expect, test, type Page } from '@playwright/test'
import { appStarted } from './helpers.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { signInWithTestWallet } from './support/sign-in.ts'

// Roles and ACLs from the admin console against the real server: anvil account 0 is the admin
// (playwright.config.ts), account 1 a member who reads an object only through a role.

test.use({ reducedMotion: 'reduce' })

const MEMBER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

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
      return { status: answer.status, text: await answer.text() }
    },
    { method, url, body },
  )
}

/** Whether the page scrolls sideways (it must not, down to 320 px). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)

test('an admin makes a role, adds a member, gives an object to the role, and the member reads it', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000)
  const role = `Readers ${Date.now()}`
  // The member signs in once (a wallet must have, to be added to a role), in a browser of their own.
  const memberContext = await browser.newContext()
  const member = await memberContext.newPage()
  await signInWithTestWallet(member, 1)

  // The admin's private object: the member cannot read it.
  await signInWithTestWallet(page, 0)
  const made = await inPage(page, 'POST', '/api/classes/RoleSecret', {
    data: { text: 'for readers only' },
  })
  expect(made.status).toBe(201)
  const secretId = JSON.parse(made.text).objectId as string
  const secret = `/api/classes/RoleSecret/${secretId}`
  expect((await inPage(member, 'GET', secret)).status).toBe(404)

  // Roles: create one, open it, add the member by wallet address.
  await page.goto('/admin/roles')
  await appStarted(page)
  await expect(page.getByRole('heading', { level: 2, name: 'Roles' })).toBeVisible()
  await page.getByLabel('New role name').fill('no/slash')
  await page.getByRole('button', { name: 'Create role' }).click()
  await expect(page.getByRole('alert')).toContainText('A role name has letters')
  await page.getByLabel('New role name').fill(role)
  await page.getByRole('button', { name: 'Create role' }).click()
  await expect(page.getByRole('status')).toHaveText(`The role ${role} was created.`)
  const roles = page.getByRole('table', { name: 'Roles' })
  await expect(roles.getByRole('row', { name: new RegExp(role) })).toContainText('Only the console')
  const users = page.getByRole('table', { name: `Users in ${role}` })
  await expect(page.getByText('No users in it directly.')).toBeVisible()
  await page.getByLabel('Add a user (wallet address or id)').fill(`0x${'12'.repeat(20)}`)
  await page.getByRole('button', { name: 'Add user' }).click()
  await expect(page.getByRole('alert')).toContainText('must sign in once')
  await page.getByLabel('Add a user (wallet address or id)').fill(MEMBER.toLowerCase())
  await page.getByRole('button', { name: 'Add user' }).click()
  await expect(users.getByRole('rowheader', { name: MEMBER })).toBeVisible()
  await expect(
    roles
      .getByRole('row', { name: new RegExp(role) })
      .getByRole('cell')
      .nth(0),
  ).toHaveText('1')
  await expectNoSeriousAxeViolations(page)

  // At 320 px the section and the role still fit the screen.
  await page.setViewportSize({ width: 320, height: 800 })
  await expect(users.getByRole('rowheader', { name: MEMBER })).toBeVisible()
  expect(await scrollsSideways(page)).toBe(false)
  await page.screenshot({ path: '/tmp/portico-admin-roles-320.png', fullPage: true })
  await page.setViewportSize({ width: 1280, height: 900 })

  // The object's ACL: the role reads it; checked before saving.
  await page.goto('/admin/objects')
  await page.getByLabel('Class').selectOption('RoleSecret')
  const objects = page.getByRole('grid', { name: 'Objects of RoleSecret' })
  // This run's object (another run's may be in the same class).
  await objects.getByRole('button', { name: `Open ${secretId}` }).click()
  await page.getByRole('button', { name: 'Add a role' }).click()
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByRole('alert')).toHaveText('Entry 2: say which role, or remove the entry.')
  await page.getByLabel('Entry 2: role name').fill(role)
  await expect(page.getByLabel('Entry 2: read')).toBeChecked()
  // The editor at 1280 and 320 px in both themes (chosen in the header, which keeps the editor
  // open; the header folds the choice away at 320 px).
  const theme = page.getByRole('group', { name: 'Colour theme' })
  for (const scheme of ['Dark', 'Light'] as const) {
    await theme.getByRole('radio', { name: scheme }).click()
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme.toLowerCase())
    await expectNoSeriousAxeViolations(page)
    await page.setViewportSize({ width: 320, height: 800 })
    expect(await scrollsSideways(page)).toBe(false)
    await page.screenshot({ path: `/tmp/portico-admin-acl-320-${scheme}.png`, fullPage: true })
    await expectNoSeriousAxeViolations(page)
    await page.setViewportSize({ width: 1280, height: 900 })
  }
  await page.setViewportSize({ width: 320, height: 800 })
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByRole('heading', { name: /^RoleSecret / })).toHaveCount(0)
  await page.setViewportSize({ width: 1280, height: 900 })

  // The member, signed in, reads it through the site's API from the next request on.
  const read = await inPage(member, 'GET', secret)
  expect(read.status).toBe(200)
  expect(JSON.parse(read.text)).toMatchObject({
    data: { text: 'for readers only' },
    acl: { [`role:${role}`]: { read: true } },
  })
  // And through the role API, which shows them in it.
  const theirs = await inPage(member, 'GET', `/api/roles/${encodeURIComponent(role)}`)
  expect(theirs.status).toBe(200)
  expect(JSON.parse(theirs.text).userCount).toBe(1)

  // Removed from the role, they lose it.
  await page.goto('/admin/roles')
  await roles.getByRole('button', { name: `Open role ${role}` }).click()
  await users.getByRole('button', { name: `Remove ${MEMBER} from ${role}` }).click()
  await expect(page.getByText('No users in it directly.')).toBeVisible()
  expect((await inPage(member, 'GET', secret)).status).toBe(404)
  await memberContext.close()

  // Each console change is in the audit log.
  await page.goto('/admin/audit')
  const log = page.getByRole('table', { name: 'Console changes, newest first' })
  const mine = async () =>
    (
      await log
        .locator('tbody tr')
        .evaluateAll((rows) =>
          rows.map((row) => [row.children[2]?.textContent, row.children[3]?.textContent]),
        )
    ).filter(([, target]) => target === `role/${role}` || target?.startsWith('RoleSecret/'))
  await expect
    .poll(async () => (await mine()).map(([action]) => action))
    .toEqual(['role.update', 'object.update', 'role.update', 'role.create'])
})
