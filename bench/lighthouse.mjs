// Lighthouse (mobile: a mid-range phone on a throttled 4G network, Lighthouse's default) against
// the built app served by the real server: 3 runs of `/`, one of `/account` and one of
// `/analytics` (as a visitor sees them: asked to sign in). Each run prints the four category
// scores, then every performance metric with its own score out of 100 (FCP, LCP, TBT, CLS, SI:
// the performance score is their weighted mean, so this says which one cost a point) and the
// machine's load average (simulated throttling scales the main-thread tasks the trace recorded,
// so a busy machine costs points). Lighthouse is fetched on demand (`npx`), so it is not a
// dependency of the project; Debian's Chromium is the browser.
//
//   npm run bench:lighthouse        (builds first)
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { traceBreakdown } from './lighthouse-trace.mjs'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const LIGHTHOUSE = 'lighthouse@12.8.2'
/** Each page and how many runs it gets (`/` is the one with a budget of 100 everywhere). */
/** @type {[string, number][]} */
const PAGES = [
  ['/', 3],
  ['/account', 1],
  ['/analytics', 1],
]

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-lighthouse-'))
// LIGHTHOUSE_REPORTS=<dir> keeps each run's JSON report there, to read the trace's details.
const reportDir = process.env.LIGHTHOUSE_REPORTS
if (reportDir) fs.mkdirSync(reportDir, { recursive: true })
const server = spawn(process.execPath, ['packages/server/dist/cli.js'], {
  cwd: repoRoot,
  env: {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    WEB_DIR: path.join(repoRoot, 'apps/web/dist'),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
})
const url = await new Promise((resolve, reject) => {
  let output = ''
  server.stdout.on('data', (chunk) => {
    output += chunk
    const match = /running at (http:\/\/\S+)/.exec(output)
    if (match) resolve(match[1])
  })
  server.on('exit', () => reject(new Error(`the server exited:\n${output}`)))
})

/** `/`'s runs, for their median (one run says little on a shared machine). */
/** @type {{ performance: number, tbt: number }[]} */
const home = []
try {
  console.log(`Lighthouse ${LIGHTHOUSE.split('@')[1]}, mobile defaults, ${url}`)
  for (const [page, runs] of PAGES)
    for (let run = 1; run <= runs; run++) {
      const report = path.join(
        reportDir ?? dataDir,
        `${page === '/' ? 'home' : page.slice(1).replace(/\W+/g, '-')}-${run}.json`,
      )
      // Lighthouse now and then loses the trace of a load (NO_NAVSTART) on a busy machine: that run
      // is made once more.
      /** @type {import('node:child_process').SpawnSyncReturns<Buffer> | undefined} */
      let result
      for (let attempt = 1; attempt <= 2; attempt++) {
        result = spawnSync(
          'npx',
          [
            '--yes',
            LIGHTHOUSE,
            `${url}${page}`,
            '--only-categories=performance,accessibility,best-practices,seo',
            '--chrome-flags=--headless=new --no-sandbox',
            '--output=json',
            `--output-path=${report}`,
            // Keeps the trace beside the report, for the split of the blocking time below.
            '--save-assets',
            '--quiet',
          ],
          { env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' }, stdio: 'inherit' },
        )

        if (result.status === 0) break
      }
      if (result?.status !== 0) throw new Error(`lighthouse exited with ${result?.status}`)
      const { categories, audits } = JSON.parse(fs.readFileSync(report, 'utf8'))
      /**
       * A metric's value and its score out of 100 (performance is their weighted mean), so a
       * score below 100 says which metric cost it.
       * @param {string} label
       * @param {string} id
       */
      const metric = (label, id) =>
        `${label} ${audits[id].displayValue} (${Math.round(audits[id].score * 100)})`
      /** @param {string} id */
      const score = (id) => Math.round(categories[id].score * 100)
      // What cost points, so a score below 100 says why.
      const failed = Object.values(categories)
        .flatMap((category) => category.auditRefs)
        .filter(
          (ref) => ref.weight > 0 && audits[ref.id].score !== null && audits[ref.id].score < 1,
        )
        .map((ref) => `${ref.id} (${audits[ref.id].displayValue ?? audits[ref.id].score})`)
      console.log(
        `${page} run ${run}: performance ${score('performance')}, ` +
          `accessibility ${score('accessibility')}, best practices ${score('best-practices')}, ` +
          `SEO ${score('seo')}; ` +
          `${metric('FCP', 'first-contentful-paint')}, ${metric('LCP', 'largest-contentful-paint')}, ` +
          `${metric('TBT', 'total-blocking-time')}, ${metric('CLS', 'cumulative-layout-shift')}, ` +
          `${metric('SI', 'speed-index')}; load ${os.loadavg()[0]?.toFixed(1)}` +
          (failed.length ? `\n  below 1: ${failed.join(', ')}` : ''),
      )
      // The main-thread tasks over 50 ms in Lighthouse's simulation (the recorded task × the CPU
      // slowdown, halved for layout), which make up TBT; `/` is the page itself: its parse, style,
      // layout and paint, which the simulation can place after its first paint.
      /** @type {{ url: string, startTime: number, duration: number }[]} */
      const longTasks = audits['long-tasks']?.details?.items ?? []
      if (longTasks.length)
        console.log(
          `  long tasks (simulated ms, start+duration): ${longTasks
            .toSorted((a, b) => a.startTime - b.startTime)
            .map(
              (task) =>
                `${task.url.startsWith(url) ? task.url.slice(url.length) : task.url} ` +
                `${Math.round(task.startTime)}+${Math.round(task.duration)}`,
            )
            .join(', ')}`,
        )
      const breakdown = traceBreakdown(report.replace(/\.json$/, '-0.trace.json'))
      if (breakdown)
        console.log(
          `  recorded: the browser's navigation commit ${breakdown.commitMs.toFixed(1)} ms ` +
            `(${Math.round(breakdown.commitMs * 4)} simulated, counted after the simulated FCP); ` +
            `other tasks over 50 ms simulated: ${
              breakdown.pageTasks
                .map(
                  (task) =>
                    `${task.label} at ${Math.round(task.atMs)} ${task.ms.toFixed(1)} ms ` +
                    `(${Math.round(task.simulatedMs)})`,
                )
                .join(', ') || 'none'
            }`,
        )
      if (page === '/')
        home.push({
          performance: score('performance'),
          tbt: audits['total-blocking-time'].numericValue,
        })
    }
  const median = (/** @type {number[]} */ values) =>
    values.toSorted((a, b) => a - b)[values.length >> 1]
  console.log(
    `/ median of ${home.length}: performance ${median(home.map((run) => run.performance))}, ` +
      `TBT ${Math.round(median(home.map((run) => run.tbt)) ?? 0)} ms`,
  )
} finally {
  server.kill('SIGTERM')
  fs.rmSync(dataDir, { recursive: true, force: true })
}
