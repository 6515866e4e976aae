import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'
import axe from 'axe-core'

/**
 * The axe-core rules that can never report a serious or critical violation: axe gives each of
 * its rules one impact and reports every violation of a rule at that impact, so a rule declared
 * minor or moderate cannot fail these tests, which only refuse serious and critical ones. Not
 * running them takes about a third off each analysis (they walk the whole page: landmarks,
 * regions, heading order). Read from the installed axe-core itself, so a new version's rules are
 * sorted the same way; if its internals ever change shape, every rule runs as before.
 */
const rulesBelowSerious = (
  (axe as unknown as { _audit?: { rules?: { id: string; impact?: string }[] } })._audit?.rules ?? []
)
  .filter((rule) => rule.impact === 'minor' || rule.impact === 'moderate')
  .map((rule) => rule.id)

/** An axe analysis of `page` for serious and critical violations, without the rules in `disable`. */
export function seriousAxe(page: Page, disable: string[] = []) {
  return new AxeBuilder({ page }).disableRules([...rulesBelowSerious, ...disable])
}

/** no serious or critical axe-core violation on what the page shows now (but `exclude`). */
export async function expectNoSeriousAxeViolations(
  page: Page,
  options: { exclude?: string[]; disableRules?: string[] } = {},
) {
  const builder = seriousAxe(page, options.disableRules)
  for (const selector of options.exclude ?? []) builder.exclude(selector)
  const results = await builder.analyze()
  const blocking = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }))
  expect(blocking).toEqual([])
}
