import path from 'node:path'
import type { Reporter, TestModule } from 'vitest/node'

/**
 * A Vitest reporter that ends a run of many files with its slowest ones: the time each took from
 * its import to its last hook, and how much of that was the import. Where a suite's time goes is
 * then in every CI log, not only on a developer's machine.
 */
export default class SlowestFiles implements Reporter {
  constructor(private readonly options: { count?: number; minFiles?: number } = {}) {}

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const { count = 15, minFiles = 10 } = this.options
    if (modules.length < minFiles) return
    const timed = modules.map((module) => {
      const diagnostic = module.diagnostic()
      const imported = diagnostic.collectDuration + diagnostic.setupDuration
      return {
        name: `${module.project.name}  ${path.relative(process.cwd(), module.moduleId)}`,
        total: imported + diagnostic.duration + diagnostic.environmentSetupDuration,
        imported,
      }
    })
    timed.sort((a, b) => b.total - a.total)
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8)
    const lines = timed
      .slice(0, count)
      .map(
        ({ name, total, imported }) => `${seconds(total)}  (import ${seconds(imported)})  ${name}`,
      )
    const sum = timed.reduce((all, file) => all + file.total, 0)
    console.log(
      `\nSlowest ${lines.length} of ${timed.length} test files (${seconds(sum).trim()} in all, across workers):\n` +
        lines.join('\n'),
    )
  }
}
