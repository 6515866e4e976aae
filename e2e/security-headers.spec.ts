import { expect, test } from '@playwright/test'
import { appStarted } from './helpers.ts'

// the app is served with a strict content security policy (no 'unsafe-inline'
// for scripts; the inline theme script is allowed by its hash) and works under it.

for (const path of ['/', '/account', '/analytics', '/no-such-page']) {
  test(`${path} runs under the content security policy without a violation`, async ({ page }) => {
    const violations: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
    })
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(
          `Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`,
        )
      })
    })
    const response = await page.goto(path)
    const policy = response?.headers()['content-security-policy'] ?? ''
    const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src')) ?? ''
    expect(scriptSrc).toContain("'sha256-")
    expect(scriptSrc).not.toContain('unsafe-inline')
    expect(policy).toContain("frame-ancestors 'none'")
    expect(response?.headers()['x-content-type-options']).toBe('nosniff')
    await appStarted(page)
    // The inline theme script ran (it sets data-theme before first paint).
    await expect(page.locator('html')).toHaveAttribute('data-theme', /light|dark/)
    expect(violations).toEqual([])
  })
}
