import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/** no serious or critical axe-core violation on what the page shows now. */
export async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const blocking = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }))
  expect(blocking).toEqual([])
}
