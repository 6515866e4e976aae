import path from 'node:path'
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter'

/**
 * A Playwright reporter that ends a run of many tests with the spec files that took longest (the
 * time of their tests, retries included, summed across workers) and the slowest tests, so where
 * the browser suite's time goes is in every CI log, as the server suite's slowest files are.
 */
export default class SlowestSpecs implements Reporter {
  private readonly tests: { file: string; title: string; ms: number }[] = []

  constructor(private readonly options: { count?: number; minTests?: number } = {}) {}

  printsToStdio(): boolean {
    return false
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = path.relative(process.cwd(), test.location.file)
    this.tests.push({
      file,
      title: `${file}:${test.location.line} ${test.title}`,
      ms: result.duration,
    })
  }

  onEnd(_result: FullResult): void {
    const { count = 10, minTests = 10 } = this.options
    if (this.tests.length < minTests) return
    const byFile = new Map<string, number>()
    for (const { file, ms } of this.tests) byFile.set(file, (byFile.get(file) ?? 0) + ms)
    const files = [...byFile].sort((a, b) => b[1] - a[1]).slice(0, count)
    const tests = [...this.tests].sort((a, b) => b.ms - a.ms).slice(0, count)
    const sum = this.tests.reduce((all, { ms }) => all + ms, 0)
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8)
    console.log(
      `\nSlowest ${files.length} of ${byFile.size} spec files (${seconds(sum).trim()} in all, across workers):\n` +
        files.map(([file, ms]) => `${seconds(ms)}  ${file}`).join('\n') +
        `\nSlowest ${tests.length} of ${this.tests.length} tests:\n` +
        tests.map(({ title, ms }) => `${seconds(ms)}  ${title}`).join('\n'),
    )
  }
}
