import { expect, test, type Page } from '@playwright/test'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { signInWithTestWallet } from './support/sign-in.ts'
import { openAccountFromHeader } from './wallet/journey.ts'

// The profile on the Account page: an object of class Profile with an uploaded avatar
// and a birthday, through the SDK against the real server.

test.use({ reducedMotion: 'reduce' })

/** A valid 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

async function openProfile(page: Page) {
  await openAccountFromHeader(page)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account')
  const form = page.getByRole('form', { name: 'Profile' })
  await expect(form.getByLabel('Display name')).toBeVisible()
  return form
}

test('a profile with avatar and birthday is saved and shown after a reload', async ({ page }) => {
  await signInWithTestWallet(page, 1)
  const form = await openProfile(page)

  await form.getByLabel('Display name').fill('Ada Lovelace')
  // Hold the upload at the server's door to see its progress bar.
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/api/files/*', async (route) => {
    await held
    await route.continue()
  })
  await form.getByLabel(/image…/).setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: PNG,
  })
  await expect(form.getByRole('progressbar')).toBeVisible()
  await expect(form.getByRole('button', { name: 'Save profile' })).toBeDisabled()
  release()
  await expect(form.getByRole('progressbar')).toHaveCount(0)
  await form.getByLabel('Birthday').fill('1990-05-17')
  await form.getByRole('button', { name: 'Save profile' }).click()
  await expect(form.getByText('Profile saved.')).toBeVisible()

  await page.reload()
  const reloaded = page.getByRole('form', { name: 'Profile' })
  await expect(reloaded.getByLabel('Display name')).toHaveValue('Ada Lovelace')
  await expect(reloaded.getByLabel('Birthday')).toHaveValue('1990-05-17')
  const avatar = reloaded.getByRole('img', { name: 'Your avatar' })
  await expect(avatar).toHaveAttribute('src', /\/api\/files\/[\w-]+_avatar\.png$/)
  // The image really loaded from the server.
  await expect
    .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(1)
})

test('a future birthday and an over-limit image are refused with a message', async ({ page }) => {
  await signInWithTestWallet(page, 1)
  const form = await openProfile(page)
  const saves: string[] = []
  page.on('request', (request) => {
    if (/\/api\/(classes|files)\//.test(request.url()) && request.method() !== 'GET')
      saves.push(request.url())
  })

  await form.getByLabel('Birthday').fill('2999-01-01')
  await form.getByRole('button', { name: 'Save profile' }).click()
  await expect(form.getByText('A birthday cannot be in the future.')).toBeVisible()
  await expect(form.getByLabel('Birthday')).toHaveAttribute('aria-invalid', 'true')
  await expect(form.getByLabel('Birthday')).toBeFocused()

  await form.getByLabel(/image…/).setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(3 * 1024 * 1024, 1),
  })
  await expect(form.getByRole('alert')).toHaveText('The image is 3.0 MB; the limit is 2.0 MB.')
  expect(saves).toEqual([])
  // The form with its error messages, in both themes.
  for (const theme of ['Light', 'Dark'] as const) {
    await page.getByRole('radio', { name: theme, exact: true }).check()
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme.toLowerCase())
    await expectNoSeriousAxeViolations(page)
  }
})

test('a partly typed birthday is refused, not stored as empty', async ({ page }) => {
  await signInWithTestWallet(page, 1)
  const form = await openProfile(page)
  await form.getByLabel('Display name').fill('Partial Date')
  // Type the month only: the field holds no value, but the browser knows it is incomplete.
  await form.getByLabel('Birthday').fill('')
  await form.getByLabel('Birthday').focus()
  await page.keyboard.type('05')
  expect(
    await form.getByLabel('Birthday').evaluate((e: HTMLInputElement) => e.validity.badInput),
  ).toBe(true)
  await form.getByRole('button', { name: 'Save profile' }).click()
  await expect(
    form.getByText('Enter a complete, real date (for example 1990-05-17).'),
  ).toBeVisible()
  await expect(form.getByRole('status')).not.toContainText('Profile saved.')
  await expect(form.getByLabel('Birthday')).toBeFocused()
})

test('leaving with unsaved changes asks first; staying keeps what was typed', async ({ page }) => {
  await signInWithTestWallet(page, 1)
  const form = await openProfile(page)
  await form.getByLabel('Display name').fill('Not saved yet')

  const questions: string[] = []
  page.once('dialog', (dialog) => {
    questions.push(dialog.message())
    void dialog.dismiss()
  })
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click()
  expect(questions).toEqual(['Your profile has unsaved changes. Leave this page and lose them?'])
  await expect(page).toHaveURL(/\/account$/)
  await expect(form.getByLabel('Display name')).toHaveValue('Not saved yet')

  // Saved, it leaves without asking.
  await form.getByRole('button', { name: 'Save profile' }).click()
  await expect(form.getByRole('status').first()).toContainText('Profile saved.')
  page.on('dialog', (dialog) => {
    questions.push(dialog.message())
    void dialog.accept()
  })
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click()
  await expect(page).toHaveURL(/\/$/)
  expect(questions).toHaveLength(1)
})
