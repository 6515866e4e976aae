import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/** no serious or critical axe-core violation on what the page shows now (but `exclude`). */
export async function expectNoSeriousAxeViolations(
  page: Page,
  options: { exclude?: string[]; disableRules?: string[] } = {},
) {
  const builder = new AxeBuilder({ page })
  for (const selector of options.exclude ?? []) builder.exclude(selector)
  if (options.disableRules) builder.disableRules(options.disableRules)
  const results = await builder.analyze()
  const blocking = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }))
  expect(blocking).toEqual([])
}
