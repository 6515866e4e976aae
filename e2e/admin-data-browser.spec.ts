import { expect, test, type Locator, type Page } from '@playwright/test'
import { appStarted } from './helpers.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { signInWithTestWallet } from './support/sign-in.ts'

// The console's data browser against the real server, as anvil account 0 (an admin): a class
// with a field of every type, browsed, sorted, filtered, edited cell by cell, a field added
// and a selection deleted, at 1280 and 320 px in both themes.

test.use({ reducedMotion: 'reduce' })
// Each test seeds classes of its own: they run side by side on separate workers, so this long
// file does not hold one worker while the other has finished.
test.describe.configure({ mode: 'parallel' })

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

const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)

async function useTheme(page: Page, scheme: 'light' | 'dark') {
  await page.evaluate((choice) => localStorage.setItem('theme', choice), scheme)
  await page.reload()
  await appStarted(page)
  await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
}

/** A class of this run, with three objects holding a value of every type. */
async function seed(page: Page) {
  const suffix = Date.now().toString(36)
  const cls = `Browse${suffix}`
  const team = JSON.parse(
    (await inPage(page, 'POST', `/api/classes/Team${suffix}`, { data: { name: 'Reds' } })).text,
  ).objectId as string
  const ids: string[] = []
  for (const [title, score, done] of [
    ['alpha', 3, true],
    ['beta', 9, false],
    ['gamma', 5, true],
  ] as const) {
    const made = await inPage(page, 'POST', `/api/classes/${cls}`, {
      publicRead: true,
      data: {
        title,
        score,
        done,
        due: { __type: 'Date', iso: '2025-03-04T05:06:07.000Z' },
        team: { __type: 'Pointer', className: `Team${suffix}`, objectId: team },
        place: { __type: 'GeoPoint', latitude: 48.85, longitude: 2.35 },
        tags: ['a', 'b'],
        meta: { level: 1 },
        zone: {
          __type: 'Polygon',
          coordinates: [
            [0, 0],
            [0, 1],
            [1, 1],
            [0, 0],
          ],
        },
        blob: { __type: 'Bytes', base64: 'AAEC' },
      },
    })
    expect(made.status).toBe(201)
    ids.push(JSON.parse(made.text).objectId)
  }
  return { cls, team, teamClass: `Team${suffix}`, ids }
}

/** The cell of `row` (0-based among the objects) under the header named `field`. */
async function cell(grid: Locator, row: number, field: string) {
  const headers = await grid.locator('thead th').allTextContents()
  const index = headers.findIndex((text) => text.startsWith(field))
  expect(index, `column ${field}`).toBeGreaterThan(-1)
  return grid.locator('tbody tr').nth(row).locator('td').nth(index)
}

/**
 * Opens a cell's editor with the keyboard, types, saves with Enter (or the Save button), and waits
 * for the editor to close: until the save is answered the grid takes no other key.
 */
async function editCell(
  grid: Locator,
  row: number,
  field: string,
  fill: (editor: Locator) => Promise<void>,
) {
  const target = await cell(grid, row, field)
  // Focused, not clicked: a click on a pointer or file cell follows its link.
  await target.focus()
  await target.press('Enter')
  const editor = target.getByRole('group', { name: `Edit ${field}` })
  await expect(editor).toBeVisible()
  await fill(editor)
  await expect(editor).toHaveCount(0)
}

test('an admin browses, sorts, filters, edits each type, adds a field and deletes a selection', async ({
  page,
}) => {
  test.setTimeout(360_000)
  await page.setViewportSize({ width: 1280, height: 900 })
  await signInWithTestWallet(page, 0)
  const { cls, team, teamClass, ids } = await seed(page)
  await page.goto(`/admin/objects?class=${cls}`)
  await appStarted(page)
  const grid = page.getByRole('grid', { name: `Objects of ${cls}` })
  await expect(grid.locator('tbody tr')).toHaveCount(3)

  // The keyboard path to the first cell: two Tab presses, through the skip links.
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused()
  await page.keyboard.press('Enter')
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to the grid' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(grid.locator('td[data-cell="0:0"]')).toBeFocused()
  // The header row is one stop and the rows another, whatever the number of columns and rows.
  const inside = (selector: string) =>
    page.evaluate((s) => document.activeElement?.closest(s) !== null, selector)
  const headerItems = grid.locator('thead [data-header]')
  await page.keyboard.press('Shift+Tab')
  await expect(headerItems.first()).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(headerItems.nth(1)).toBeFocused()
  await page.keyboard.press('Shift+Tab')
  expect(await inside('thead')).toBe(false)
  await page.keyboard.press('Tab')
  await expect(headerItems.nth(1)).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(grid.locator('td[data-cell="0:0"]')).toBeFocused()
  await page.keyboard.press('ArrowLeft')
  await expect(
    grid
      .locator('tbody tr')
      .first()
      .getByRole('button', { name: /^Open / }),
  ).toBeFocused()
  await page.keyboard.press('ArrowLeft')
  await expect(grid.locator('tbody tr').first().getByRole('checkbox')).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expect(grid.locator('td[data-cell="0:0"]')).toBeFocused()
  await page.keyboard.press('Tab')
  expect(await inside('[role="grid"]')).toBe(false)

  // Browsing: one column per field, its type in the header.
  for (const [field, type] of [
    ['title', 'String'],
    ['score', 'Number'],
    ['done', 'Boolean'],
    ['due', 'Date'],
    ['team', 'Pointer'],
    ['place', 'GeoPoint'],
    ['tags', 'Array'],
    ['meta', 'Object'],
    ['zone', 'Polygon'],
    ['blob', 'Bytes'],
    ['ACL', 'ACL'],
  ] as const)
    await expect(grid.locator('thead th').filter({ hasText: field }).first()).toContainText(type)
  for (const scheme of ['light', 'dark'] as const) {
    await useTheme(page, scheme)
    await expect(grid.locator('tbody tr')).toHaveCount(3)
    await expectNoSeriousAxeViolations(page)
  }
  await useTheme(page, 'light')

  // Sorting: a click on a header sorts by it, a second click the other way.
  const scores = async () => (await cell(grid, 0, 'score')).textContent()
  await grid.getByRole('button', { name: /^score/ }).click()
  await expect(grid.locator('thead th[aria-sort="ascending"]')).toContainText('score')
  await expect.poll(scores).toBe('3')
  await grid.getByRole('button', { name: /^score/ }).click()
  await expect(grid.locator('thead th[aria-sort="descending"]')).toContainText('score')
  await expect.poll(scores).toBe('9')

  // Filtering: field, test, value.
  await page.getByRole('button', { name: 'Add condition' }).click()
  await page.getByLabel('Field of condition 1').selectOption('score')
  await page.getByLabel('Test of condition 1').selectOption('gte')
  await page.getByLabel('Value of condition 1').fill('5')
  await page.getByRole('button', { name: 'Apply filter' }).click()
  await expect(grid.locator('tbody tr')).toHaveCount(2)
  // Class, filter and order are in the address: the view survives a reload and can be shared.
  await expect(page).toHaveURL(/[?&]where=/)
  const view = page.url()
  expect(new URL(view).searchParams.get('order')).toBe('-score')
  expect(JSON.parse(new URL(view).searchParams.get('where')!)).toEqual({ score: { $gte: 5 } })
  await page.reload()
  await appStarted(page)
  await expect(grid.locator('tbody tr')).toHaveCount(2)
  await expect(grid.locator('thead th[aria-sort="descending"]')).toContainText('score')
  await expect.poll(scores).toBe('9')
  // Reloaded, the filter reads as its JSON; back to a condition for what follows.
  await expect(page.getByLabel('Filter (where, as JSON)')).toHaveValue('{"score":{"$gte":5}}')
  await page.getByRole('radio', { name: 'Conditions' }).check()
  await page.getByRole('button', { name: 'Add condition' }).click()
  await page.getByLabel('Field of condition 1').selectOption('score')
  await page.getByLabel('Test of condition 1').selectOption('gte')
  // An unreadable filter shows no rows, and says why.
  await page.getByLabel('Value of condition 1').fill('many')
  await page.getByRole('button', { name: 'Apply filter' }).click()
  await expect(page.getByRole('alert')).toContainText('is not a number')
  await expect(page.getByRole('grid')).toHaveCount(0)
  await page.getByRole('radio', { name: 'JSON where' }).check()
  await page.getByLabel('Filter (where, as JSON)').fill('{"score": ')
  await page.getByRole('button', { name: 'Apply filter' }).click()
  await expect(page.getByRole('alert')).toContainText('not valid JSON')
  await expect(page.getByRole('grid')).toHaveCount(0)
  // One the server refuses (an unknown operator) shows no rows either.
  await page.getByLabel('Filter (where, as JSON)').fill('{"score": {"$bogus": 1}}')
  await page.getByRole('button', { name: 'Apply filter' }).click()
  await expect(page.getByRole('alert')).toBeVisible()
  await expect(page.getByRole('grid')).toHaveCount(0)
  await expectNoSeriousAxeViolations(page)
  await page.getByRole('button', { name: 'Clear' }).click()
  await expect(grid.locator('tbody tr')).toHaveCount(3)

  // Tests by type, and OR groups: title ends with "ta", or score is one of 3 and 4.
  await page.getByRole('radio', { name: 'Conditions' }).check()
  await page.getByRole('button', { name: 'Add condition' }).click()
  await page.getByLabel('Field of condition 1').selectOption('title')
  await page.getByLabel('Test of condition 1').selectOption('endsWith')
  await page.getByLabel('Value of condition 1').fill('ta')
  await page.getByRole('button', { name: 'Add an OR group' }).click()
  await page.getByLabel('Field of condition 2').selectOption('score')
  await page.getByLabel('Test of condition 2').selectOption('in')
  await page.getByLabel('Value of condition 2').fill('3, 4')
  await page.getByRole('button', { name: 'Apply filter' }).click()
  await expect(grid.locator('tbody tr')).toHaveCount(2)
  await expect(grid).toContainText('alpha')
  await expect(grid).toContainText('beta')
  expect(JSON.parse(new URL(page.url()).searchParams.get('where')!)).toEqual({
    $or: [{ title: { $regex: 'ta$' } }, { score: { $in: [3, 4] } }],
  })
  // A place near another, by distance.
  await page.getByRole('button', { name: 'Remove condition 2' }).click()
  await page.getByLabel('Field of condition 1').selectOption('place')
  await page.getByLabel('Test of condition 1').selectOption('near')
  await page.getByLabel('Value of condition 1').fill('48.86, 2.35, 5')
  await page.getByRole('button', { name: 'Apply filter' }).click()
  await expect(grid.locator('tbody tr')).toHaveCount(3)
  await page.getByLabel('Value of condition 1').fill('40.7, -74, 5')
  await page.getByRole('button', { name: 'Apply filter' }).click()
  await expect(page.getByText('No objects match this filter.')).toBeVisible()
  await page.getByRole('button', { name: 'Clear' }).click()
  await expect(grid.locator('tbody tr')).toHaveCount(3)
  await page.getByRole('radio', { name: 'JSON where' }).check()

  // A filter named and kept for the class, used again after a reload, then forgotten.
  await page.getByRole('button', { name: 'Save filter' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Not saved' })).toContainText(
    'add a condition first',
  )
  await page.getByLabel('Filter (where, as JSON)').fill('{"score": {"$gte": 5}}')
  await page.getByLabel('Name of this filter').fill('high scores')
  await page.getByRole('button', { name: 'Save filter' }).click()
  await expect(page.getByText('Saved as “high scores”.')).toBeVisible()
  await page.reload()
  await appStarted(page)
  await expect(grid.locator('tbody tr')).toHaveCount(3)
  await page.getByLabel('Saved filter').selectOption('high scores')
  await expect(grid.locator('tbody tr')).toHaveCount(2)
  expect(JSON.parse(new URL(page.url()).searchParams.get('where')!)).toEqual({
    score: { $gte: 5 },
  })
  await page.getByRole('button', { name: 'Forget it' }).click()
  await expect(page.getByLabel('Saved filter')).toHaveCount(0)
  await page.getByRole('button', { name: 'Clear' }).click()
  await expect(grid.locator('tbody tr')).toHaveCount(3)

  // Keyboard: arrows move between cells.
  const first = await cell(grid, 0, 'objectId')
  await first.click()
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowDown')
  await expect(grid.locator('td[data-cell="1:1"]')).toBeFocused()

  // Editing each type, checked before saving. The rows are sorted by score, descending: beta.
  await editCell(grid, 0, 'title', async (editor) => {
    await editor.getByRole('textbox').fill('beta, edited')
    await editor.getByRole('textbox').press('Enter')
  })
  await expect(await cell(grid, 0, 'title')).toHaveText('beta, edited')
  await editCell(grid, 0, 'score', async (editor) => {
    await editor.getByRole('textbox').fill('lots')
    await editor.getByRole('textbox').press('Enter')
    await expect(editor.getByRole('alert')).toHaveText('"lots" is not a number.')
    await editor.getByRole('textbox').fill('12.5')
    await editor.getByRole('textbox').press('Enter')
  })
  await expect(await cell(grid, 0, 'score')).toHaveText('12.5')
  await editCell(grid, 0, 'done', async (editor) => {
    await editor.getByRole('combobox').selectOption('true')
    await editor.getByRole('button', { name: 'Save' }).click()
  })
  await expect(await cell(grid, 0, 'done')).toHaveText('true')
  // Escape closes an editor from any of its controls, nothing saved.
  const title = await cell(grid, 0, 'title')
  await title.focus()
  await title.press('Enter')
  await title.getByRole('textbox').fill('not kept')
  await title.getByRole('button', { name: 'Cancel' }).focus()
  await page.keyboard.press('Escape')
  await expect(title.getByRole('group')).toHaveCount(0)
  await expect(title).toHaveText('beta, edited')
  await editCell(grid, 0, 'due', async (editor) => {
    // The picker is wide enough for the whole date and time, and names its zone.
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)
    await expect(editor.getByText(`${zone} time`)).toBeVisible()
    const picker = editor.getByLabel('due (date)')
    // Chromium's picker needs about 220 px for a date, a time with seconds and its button.
    expect((await picker.boundingBox())!.width).toBeGreaterThanOrEqual(220)
    await picker.fill('2026-01-02T03:04:05')
    await editor.getByRole('button', { name: 'Save' }).click()
  })
  const due = new Date('2026-01-02T03:04:05').toISOString()
  await expect((await cell(grid, 0, 'due')).locator('time')).toHaveAttribute('datetime', due)
  await editCell(grid, 0, 'team', async (editor) => {
    await editor.getByRole('textbox').fill('not an id!')
    await editor.getByRole('button', { name: 'Save' }).click()
    await expect(editor.getByRole('alert')).toContainText('object id')
    await editor.getByRole('textbox').fill(team)
    await expect(editor.getByRole('link', { name: `Open ${teamClass}` })).toBeVisible()
    await editor.getByRole('button', { name: 'Save' }).click()
  })
  await expect((await cell(grid, 0, 'team')).getByRole('link')).toHaveAttribute(
    'href',
    new RegExp(`class=${teamClass}`),
  )
  await editCell(grid, 0, 'place', async (editor) => {
    await editor.getByLabel('Latitude').fill('95')
    await editor.getByLabel('Longitude').fill('2')
    await editor.getByRole('button', { name: 'Save' }).click()
    await expect(editor.getByRole('alert')).toContainText('Latitude')
    await editor.getByLabel('Latitude').fill('51.5')
    await editor.getByLabel('Longitude').fill('')
    await editor.getByRole('button', { name: 'Save' }).click()
    await expect(editor.getByRole('alert')).toContainText('both latitude and longitude')
    await editor.getByLabel('Longitude').fill('-0.12')
    await editor.getByRole('button', { name: 'Save' }).click()
  })
  await expect(await cell(grid, 0, 'place')).toHaveText('51.5, -0.12')
  await editCell(grid, 0, 'tags', async (editor) => {
    await editor.getByRole('textbox').fill('{"not": "an array"}')
    await editor.getByRole('button', { name: 'Save' }).click()
    await expect(editor.getByRole('alert')).toHaveText('Give a JSON array: [ … ].')
    await editor.getByRole('textbox').fill('["x", 2]')
    await editor.getByRole('textbox').press('Control+Enter')
  })
  await expect(await cell(grid, 0, 'tags')).toHaveText('["x",2]')
  await editCell(grid, 0, 'meta', async (editor) => {
    await editor.getByRole('textbox').fill('{"level": 2}')
    await editor.getByRole('button', { name: 'Save' }).click()
  })
  await expect(await cell(grid, 0, 'meta')).toHaveText('{"level":2}')
  await expect(await cell(grid, 0, 'blob')).toHaveText('3 bytes: AAEC')
  await editCell(grid, 0, 'zone', async (editor) => {
    await expect(editor.getByRole('textbox')).toHaveValue('0, 0\n0, 1\n1, 1\n0, 0')
    await editor.getByRole('textbox').fill('10, 10\n10, 11')
    await editor.getByRole('button', { name: 'Save' }).click()
    await expect(editor.getByRole('alert')).toContainText('at least 3 different points')
    await editor.getByRole('textbox').fill('10, 10\n10, 11\n11, 11')
    await editor.getByRole('textbox').press('Control+Enter')
  })
  await expect(await cell(grid, 0, 'zone')).toContainText('10, 10; 10, 11; 11, 11')
  await editCell(grid, 0, 'blob', async (editor) => {
    await editor.getByRole('textbox').fill('not base64!')
    await editor.getByRole('textbox').press('Enter')
    await expect(editor.getByRole('alert')).toContainText('base64')
    await editor.getByRole('textbox').fill('AAECAw==')
    await editor.getByRole('textbox').press('Enter')
  })
  await expect(await cell(grid, 0, 'blob')).toHaveText('4 bytes: AAECAw==')

  // Adding a field: a file column, then a file uploaded into it.
  await page.getByLabel('New field name').fill('photo')
  await page.getByLabel('Type', { exact: true }).selectOption('file')
  await page.getByRole('button', { name: 'Add field' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'photo' })).toContainText(
    'The field photo (File) was added',
  )
  await expect(grid.locator('thead th').filter({ hasText: 'photo' })).toContainText('File')
  await editCell(grid, 0, 'photo', async (editor) => {
    await editor.getByLabel('photo (file)').setInputFiles({
      name: 'dot.png',
      mimeType: 'image/png',
      buffer: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      ),
    })
    await editor.getByRole('button', { name: 'Save' }).click()
  })
  await expect((await cell(grid, 0, 'photo')).getByRole('link')).toContainText('dot.png')
  const saved = JSON.parse(
    (
      await inPage(
        page,
        'GET',
        `/api/admin/classes/${cls}?where=${encodeURIComponent(JSON.stringify({ title: 'beta, edited' }))}`,
      )
    ).text,
  )
  expect(saved.results[0].data).toMatchObject({
    score: 12.5,
    done: true,
    due: { __type: 'Date', iso: due },
    team: { __type: 'Pointer', className: teamClass, objectId: team },
    place: { __type: 'GeoPoint', latitude: 51.5, longitude: -0.12 },
    tags: ['x', 2],
    meta: { level: 2 },
    zone: {
      __type: 'Polygon',
      coordinates: expect.arrayContaining([
        [10, 10],
        [10, 11],
        [11, 11],
      ]),
    },
    blob: { __type: 'Bytes', base64: 'AAECAw==' },
    photo: { __type: 'File', name: expect.stringContaining('dot') },
  })

  // Widths and hidden columns are kept for the class.
  await page.getByText('Columns', { exact: true }).click()
  await page.getByRole('checkbox', { name: 'meta', exact: true }).uncheck()
  const widthHandle = grid.getByRole('separator', { name: 'Width of title' })
  const before = Number(await widthHandle.getAttribute('aria-valuenow'))
  await widthHandle.focus()
  await page.keyboard.press('Shift+ArrowRight')
  await page.keyboard.press('Shift+ArrowRight')
  await page.reload()
  await appStarted(page)
  await expect(grid.locator('thead th').filter({ hasText: 'meta' })).toHaveCount(0)
  await expect(grid.getByRole('separator', { name: 'Width of title' })).toHaveAttribute(
    'aria-valuenow',
    String(before + 32),
  )
  await expectNoSeriousAxeViolations(page)

  // Bulk: select two, delete them after confirming.
  await grid.getByRole('checkbox', { name: `Select ${ids[0]}` }).check()
  await grid.getByRole('checkbox', { name: `Select ${ids[1]}` }).check()
  await expect(page.getByText(/, 2 selected/)).toBeVisible()
  await page.getByRole('button', { name: 'Delete selected…' }).click()
  await page.getByRole('button', { name: 'Yes, delete' }).click()
  await expect(page.getByText('Deleted 2 objects.')).toBeVisible()
  await expect(grid.locator('tbody tr')).toHaveCount(1)
  expect((await inPage(page, 'GET', `/api/admin/classes/${cls}?count=1`)).text).toContain(
    '"count":1',
  )
})

test('the console at 320 px, in both themes: no sideways page, the grid scrolls in its frame', async ({
  page,
}) => {
  test.setTimeout(300_000)
  await signInWithTestWallet(page, 0)
  const { cls } = await seed(page)
  await page.setViewportSize({ width: 320, height: 800 })
  for (const scheme of ['dark', 'light'] as const) {
    await page.goto(`/admin/objects?class=${cls}`)
    await useTheme(page, scheme)
    const grid = page.getByRole('grid', { name: `Objects of ${cls}` })
    await expect(grid.locator('tbody tr')).toHaveCount(3)
    await expect(page.getByText('scrolls sideways inside its frame')).toBeVisible()
    expect(await scrollsSideways(page)).toBe(false)
    // Sorting and filtering work here too.
    await grid.getByRole('button', { name: /^title/ }).click()
    await expect(grid.locator('thead th[aria-sort="ascending"]')).toContainText('title')
    await page.getByRole('button', { name: 'Add condition' }).click()
    await page.getByLabel('Field of condition 1').selectOption('done')
    await page.getByLabel('Value of condition 1').fill('maybe')
    await page.getByRole('button', { name: 'Apply filter' }).click()
    await expect(page.getByRole('alert')).toContainText('true or false')
    await expect(page.getByRole('grid')).toHaveCount(0)
    expect(await scrollsSideways(page)).toBe(false)
    await expectNoSeriousAxeViolations(page)
    await page.getByLabel('Value of condition 1').fill('true')
    await page.getByRole('button', { name: 'Apply filter' }).click()
    await expect(grid.locator('tbody tr')).toHaveCount(2)
    await editCell(grid, 0, 'title', async (editor) => {
      await editor.getByRole('textbox').fill(`narrow ${scheme}`)
      await editor.getByRole('textbox').press('Enter')
    })
    await expect(grid).toContainText(`narrow ${scheme}`)
    expect(await scrollsSideways(page)).toBe(false)
    await expectNoSeriousAxeViolations(page)
    if (scheme === 'dark')
      await page.screenshot({ path: '/tmp/portico-data-browser-320-dark.png', fullPage: true })

    // The other sections of the console: no sideways page either, and the tabs in one row.
    for (const path of [
      '/admin',
      '/admin/users',
      '/admin/files',
      '/admin/keys',
      '/admin/settings',
      '/admin/audit',
      '/admin/import',
    ]) {
      await page.goto(path)
      await appStarted(page)
      await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible()
      const tabs = page.getByRole('navigation', { name: 'Console sections' }).getByRole('link')
      const tops = await tabs.evaluateAll((links) =>
        links.map((link) => link.getBoundingClientRect().top),
      )
      expect(new Set(tops).size, `${path}: tabs in one row`).toBe(1)
      expect(await scrollsSideways(page), path).toBe(false)
      await expectNoSeriousAxeViolations(page)
    }
  }
})

test('a class larger than a page pages by key, shows its defaults, at 1280 and 320 px in both themes', async ({
  page,
}) => {
  test.setTimeout(240_000)
  await page.setViewportSize({ width: 1280, height: 900 })
  await signInWithTestWallet(page, 0)
  const cls = `Pages${Date.now().toString(36)}`
  for (let start = 0; start < 120; start += 20) {
    const requests = Array.from({ length: 20 }, (_, i) => ({
      method: 'POST',
      path: `/api/classes/${cls}`,
      body: { data: { n: start + i } },
    }))
    expect((await inPage(page, 'POST', '/api/batch', { requests })).status).toBe(200)
  }
  await page.goto(`/admin/objects?class=${cls}`)
  await appStarted(page)
  const grid = page.getByRole('grid', { name: `Objects of ${cls}` })
  await expect(grid.locator('tbody tr')).toHaveCount(50)
  const status = page.getByRole('status').filter({ hasText: 'objects' })
  await expect(status).toHaveText('120 objects, 1–50 shown')
  const column = async () => {
    const headers = await grid.locator('thead th').allTextContents()
    const index = headers.findIndex((text) => text.startsWith('n'))
    return grid.locator(`tbody tr td:nth-child(${index + 1})`).allTextContents()
  }
  const first = await column()

  // The next page is read after the last object shown (no skip), and counts nothing again.
  const asked = page.waitForRequest(
    (request) => request.url().includes(`/classes/${cls}?`) && request.url().includes('after='),
  )
  await page.getByRole('button', { name: 'Next page' }).click()
  const url = new URL((await asked).url())
  expect(url.searchParams.get('skip')).toBeNull()
  expect(url.searchParams.get('count')).toBeNull()
  await expect(status).toHaveText('120 objects, 51–100 shown')
  const second = await column()
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(status).toHaveText('120 objects, 101–120 shown')
  await expect(grid.locator('tbody tr')).toHaveCount(20)
  await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled()
  const third = await column()
  const seen = [...first, ...second, ...third].map(Number)
  expect(new Set(seen).size).toBe(120)
  expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i))

  await page.getByRole('button', { name: 'Previous page' }).click()
  await expect(status).toHaveText('120 objects, 51–100 shown')
  expect(await column()).toEqual(second)
  await page.getByRole('button', { name: 'First page' }).click()
  await expect(status).toHaveText('120 objects, 1–50 shown')
  expect(await column()).toEqual(first)

  // A larger page starts again from the first object; back to 50 for what follows.
  await page.getByLabel('Rows per page').selectOption('100')
  await expect(status).toHaveText('120 objects, 1–100 shown')
  await expect(grid.locator('tbody tr')).toHaveCount(100)
  expect((await column()).slice(0, 50)).toEqual(first)
  await page.getByLabel('Rows per page').selectOption('50')
  await expect(status).toHaveText('120 objects, 1–50 shown')

  // The class's defaults: what a new object gets when its writer says nothing.
  await page.getByText('Class defaults').click()
  const defaults = page.locator('.class-defaults')
  await expect(defaults).toContainText('Signed-in users')
  await expect(defaults).toContainText('Reads and writes it')
  await expect(defaults).toContainText('when it is saved public')
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(status).toHaveText('120 objects, 51–100 shown')
  for (const width of [1280, 320]) {
    await page.setViewportSize({ width, height: 900 })
    for (const scheme of ['light', 'dark'] as const) {
      await useTheme(page, scheme)
      await expect(grid.locator('tbody tr')).toHaveCount(50)
      await page.getByText('Class defaults').click()
      await expect(defaults).toContainText('Reads and writes it')
      expect(await scrollsSideways(page), `${width} ${scheme}`).toBe(false)
      await expectNoSeriousAxeViolations(page)
    }
  }
})

test('Settings masks secrets inside URLs and sections without rows say so', async ({ page }) => {
  await signInWithTestWallet(page, 0)
  await page.goto('/admin/settings')
  await appStarted(page)
  const rpc = page.getByRole('row', { name: /RPC_URL_31337/ })
  await expect(rpc).toContainText('http://127.0.0.1:')
  await expect(rpc).not.toContainText('secret, masked')
  await page.goto('/admin/audit')
  await expect(page.getByRole('heading', { level: 2 })).toBeVisible()
  await expect(page.locator('.console table thead + tbody:empty')).toHaveCount(0)
})
