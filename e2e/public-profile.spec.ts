import { crc32, deflateSync } from 'node:zlib'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { appStarted, seedStorage } from './helpers.ts'
import { expectNoSeriousAxeViolations } from './support/axe.ts'
import { signInWithTestWallet } from './support/sign-in.ts'
import { openAccountFromHeader } from './wallet/journey.ts'

// The public page of a wallet (`/u/<address>`): its user chooses in their profile whether their
// display name and avatar show there; visitors and other users see them only then, and the
// address alone otherwise. Uses anvil account 3, which no other spec signs in with.
test.use({ reducedMotion: 'reduce' })

const ADDRESS = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const NAME = 'Grace Hopper'

/** A 48×48 PNG of four coloured squares (an avatar that shows in a screenshot). */
function squaresPng(): Buffer {
  const size = 48
  const rows: number[] = []
  for (let y = 0; y < size; y++) {
    rows.push(0)
    for (let x = 0; x < size; x++) {
      const colour = [
        [37, 99, 235],
        [234, 88, 12],
        [22, 163, 74],
        [219, 39, 119],
      ][(y < size / 2 ? 0 : 2) + (x < size / 2 ? 0 : 1)]!
      rows.push(...colour)
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** Saves the profile form of the signed-in owner with the box ticked or not. */
async function saveProfile(page: Page, shown: boolean) {
  await openAccountFromHeader(page)
  const form = page.getByRole('form', { name: 'Profile' })
  await expect(form.getByLabel('Display name')).toBeVisible()
  await form.getByLabel('Display name').fill(NAME)
  if (!(await form.getByRole('img', { name: 'Your avatar' }).count())) {
    await form.getByLabel(/image…/).setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: squaresPng(),
    })
    await expect(form.getByRole('img', { name: 'Your avatar' })).toBeVisible()
  }
  const box = form.getByLabel('Show my name and avatar on my public page')
  await box.setChecked(shown)
  await form.getByRole('button', { name: 'Save profile' }).click()
  await expect(form.getByText('Profile saved.')).toBeVisible()
}

/** A visitor's page (a browser that never signed in), on `/u/<address>`, once its read is done. */
async function visit(browser: Browser, { theme = 'light', width = 1280 } = {}) {
  // A context of its own: no cookie or storage of the owner's (and axe needs one).
  const context = await browser.newContext({ viewport: { width, height: 800 } })
  const page = await context.newPage()
  await seedStorage(page, { theme })
  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/profiles/${ADDRESS}`))
  await page.goto(`/u/${ADDRESS}`)
  await appStarted(page)
  const body = await (await answer).json()
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveAttribute('aria-busy', 'true')
  return { page, body }
}

test('the name and avatar show on the public page only while the owner makes them public', async ({
  page,
  browser,
}) => {
  // Four visitors' views with axe, and four saves.
  test.setTimeout(120_000)
  // Nothing saved yet: the address alone.
  let visitor = await visit(browser)
  await expect(visitor.page.getByTestId('page-name')).toHaveText('Wallet')
  await expect(visitor.page.getByTestId('page-address')).toHaveText(ADDRESS)
  expect(visitor.body).toEqual({ address: ADDRESS })
  // The address can be copied and looked up on the site's first chain's explorer.
  await expect(visitor.page.getByRole('button', { name: 'Copy' })).toBeVisible()
  await expect(visitor.page.getByRole('link', { name: 'View on Etherscan' })).toHaveAttribute(
    'href',
    `https://etherscan.io/address/${ADDRESS}`,
  )
  await expect(visitor.page).toHaveTitle(/^Wallet · /)
  await visitor.page.context().close()

  // Saved, not public: still the address alone, and the answer carries nothing more.
  await signInWithTestWallet(page, 3)
  await saveProfile(page, false)
  visitor = await visit(browser)
  await expect(visitor.page.getByTestId('page-name')).toHaveText('Wallet')
  await expect(visitor.page.locator('img.user-avatar')).toHaveCount(0)
  expect(visitor.body).toEqual({ address: ADDRESS })
  await visitor.page.context().close()

  // The owner sees on their own page that visitors see the address only, and where to change it.
  await page.goto(`/u/${ADDRESS}`)
  await expect(page.getByTestId('page-mine')).toContainText('Visitors see its address only.')
  await expect(page.getByTestId('page-mine').getByRole('link')).toHaveAttribute('href', '/account')

  // Made public: visitors (and other signed-in users alike) see the name and the picture.
  await saveProfile(page, true)
  for (const width of [320, 1280]) {
    for (const theme of ['light', 'dark'] as const) {
      visitor = await visit(browser, { theme, width })
      const shown = visitor.page
      await expect(shown.getByRole('heading', { level: 1 })).toHaveText(NAME)
      await expect(shown).toHaveTitle(new RegExp(`^${NAME} · `))
      await expect(shown.getByTestId('page-address')).toHaveText(ADDRESS)
      const avatar = shown.locator('h1 img.user-avatar')
      await expect(avatar).toHaveAttribute('src', /\/api\/files\/[\w-]+_avatar\.png$/)
      await expect
        .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBe(48)
      expect(Object.keys(visitor.body).sort()).toEqual(['address', 'avatarUrl', 'displayName'])
      await expect(shown.locator('html')).toHaveAttribute('data-theme', theme)
      expect(await shown.evaluate(() => document.documentElement.scrollWidth)).toBe(width)
      await expectNoSeriousAxeViolations(shown)
      await shown.screenshot({ path: `/tmp/portico-public-profile-${theme}-${width}.png` })
      await shown.context().close()
    }
  }

  // The form's box and its hint, in both themes at 320 px, with axe.
  await page.setViewportSize({ width: 320, height: 800 })
  await page.goto('/account')
  const form = page.getByRole('form', { name: 'Profile' })
  const box = form.getByLabel('Show my name and avatar on my public page')
  await expect(box).toBeChecked()
  expect((await box.boundingBox())!.height).toBeGreaterThanOrEqual(24)
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((value) => {
      localStorage.setItem('theme', value)
    }, theme)
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    await box.scrollIntoViewIfNeeded()
    await expectNoSeriousAxeViolations(page)
    await form.screenshot({ path: `/tmp/portico-public-profile-form-${theme}-320.png` })
  }

  // Private again: the address alone.
  await page.setViewportSize({ width: 1280, height: 800 })
  await saveProfile(page, false)
  visitor = await visit(browser)
  await expect(visitor.page.getByTestId('page-name')).toHaveText('Wallet')
  expect(visitor.body).toEqual({ address: ADDRESS })
  await visitor.page.context().close()
})
