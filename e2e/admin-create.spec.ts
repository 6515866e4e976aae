import { expect, test, type Page } from '@playwright/test'
import { appStarted } from './helpers.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { signInWithTestWallet } from './support/sign-in.ts'

// The data browser's creates against the real server, as anvil account 0 (an admin): a class
// made with its first fields, a row of several types added through each type's editor, both
// seen in the grid and in the audit log, a bad value refused with nothing saved, and the forms
// at 1280 and 390 px in both themes; a viewer (account 2) is offered neither.

test.use({ reducedMotion: 'reduce' })

async function useTheme(page: Page, scheme: 'light' | 'dark') {
  await page.evaluate((choice) => localStorage.setItem('theme', choice), scheme)
  await page.reload()
  await appStarted(page)
  await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
}

const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)

const FIELDS = [
  ['title', 'string'],
  ['score', 'number'],
  ['done', 'boolean'],
  ['due', 'date'],
  ['place', 'geopoint'],
  ['tags', 'array'],
  ['moon', 'pointer'],
] as const

test('an admin creates a class and adds a typed row, seen in the grid and the audit log', async ({
  page,
}) => {
  test.setTimeout(240_000)
  await page.setViewportSize({ width: 1280, height: 900 })
  await signInWithTestWallet(page, 0)
  const cls = `Made${Date.now().toString(36)}`
  await page.goto('/admin/objects')
  await appStarted(page)

  // The class: a name and its first fields, the pointer naming the class itself.
  await page.getByRole('button', { name: 'Create class…' }).click()
  const form = page.getByRole('region', { name: 'New class' })
  await form.getByLabel('Class name').fill('2nd')
  await form.getByRole('button', { name: 'Create class' }).click()
  await expect(form.getByRole('alert')).toContainText('starts with a letter')
  await form.getByLabel('Class name').fill(cls)
  for (const [i, [name, type]] of FIELDS.entries()) {
    await form.getByRole('button', { name: 'Add a field' }).click()
    await form.getByLabel(`Field ${i + 1} name`).fill(name)
    await form.getByLabel(`Field ${i + 1} type`).selectOption(type)
    if (type === 'pointer') await form.getByLabel(`Field ${i + 1} target class`).fill(cls)
  }
  await form.getByRole('button', { name: 'Create class' }).click()
  await expect(page.getByText(`The class ${cls} was created`)).toBeVisible()
  await expect(page.getByRole('combobox', { name: /^Class/ })).toHaveValue(cls)
  await expect(page.getByText(`${cls} has no objects yet.`)).toBeVisible()

  // A row, each value through its type's editor.
  await page.getByRole('button', { name: 'Add row…' }).click()
  const row = page.getByRole('region', { name: `New ${cls} row` })
  await row.getByLabel('title (String)').fill('Mars')
  await row.getByLabel('score (Number)').fill('42')
  await row.getByLabel('done (Boolean)').selectOption('true')
  await row.getByLabel('due (Date)').fill('2026-03-04T05:06:07')
  const place = row.getByRole('group', { name: /^place/ })
  await place.getByLabel('Latitude').fill('4.5')
  await place.getByLabel('Longitude').fill('137.4')
  await row.getByLabel('tags (Array)').fill('["red", "fourth"]')
  await row.getByRole('button', { name: 'Save row' }).click()
  await expect(row).toHaveCount(0)
  const grid = page.getByRole('grid', { name: `Objects of ${cls}` })
  await expect(grid.locator('tbody tr')).toHaveCount(1)
  const first = grid.locator('tbody tr').first()
  for (const text of ['Mars', '42', 'true', '4.5, 137.4', '["red","fourth"]'])
    await expect(first).toContainText(text)
  await expect(page.getByText(new RegExp(`^Added \\S+ to ${cls}\\.$`))).toBeVisible()

  // A bad value: refused in the form, then by the server (a pointer to nothing); nothing saved.
  await page.getByRole('button', { name: 'Add row…' }).click()
  await row.getByLabel('score (Number)').fill('heavy')
  await row.getByRole('button', { name: 'Save row' }).click()
  await expect(row.getByRole('alert')).toHaveText('score: "heavy" is not a number.')
  await expect(row.getByLabel('score (Number)')).toHaveAttribute('aria-invalid', 'true')
  await row.getByLabel('score (Number)').fill('7')
  await row.getByLabel('moon (Pointer)').fill('nothere')
  await row.getByRole('button', { name: 'Save row' }).click()
  await expect(row.getByRole('alert')).toContainText('which does not exist')
  await expect(row.getByLabel('moon (Pointer)')).toHaveValue('nothere')
  await row.getByRole('button', { name: 'Cancel' }).click()
  await page.reload()
  await appStarted(page)
  await expect(grid.locator('tbody tr')).toHaveCount(1)

  // Both forms, open, at both widths in both themes.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    for (const scheme of ['light', 'dark'] as const) {
      await useTheme(page, scheme)
      await page.getByRole('button', { name: 'Create class…' }).click()
      await page.getByRole('button', { name: 'Add a field' }).click()
      await page.getByRole('button', { name: 'Add row…' }).click()
      await expect(row.getByLabel('title (String)')).toBeVisible()
      await expectNoSeriousAxeViolations(page)
      expect(await scrollsSideways(page), `${width} px ${scheme}`).toBe(false)
    }
  }
  await useTheme(page, 'light')

  // The audit log names both creates, by this admin.
  await page.goto('/admin/audit')
  const log = page.getByRole('table', { name: 'Console changes, newest first' })
  await expect(
    log.locator('tbody tr').filter({ hasText: 'class.create' }).filter({ hasText: cls }),
  ).toHaveCount(1)
  const created = log
    .locator('tbody tr')
    .filter({ hasText: 'object.create' })
    .filter({ hasText: `${cls}/` })
  await expect(created).toHaveCount(1)
  await created.getByText('Show').click()
  await expect(created.locator('pre')).toContainText('"title": "Mars"')
})
