// Reads the trace Lighthouse recorded for one load (`--save-assets`) and says which of the
// renderer's main-thread tasks can cost Total Blocking Time: Lighthouse's simulation multiplies
// each recorded task by the CPU slowdown (4; 2 for a task that lays out), and every task that comes
// out over 50 ms after its simulated first paint adds the excess. The simulation's first paint only
// waits for the first parse, layout and paint, so the browser's own navigation commit (creating the
// page's JavaScript context, which the page cannot shorten) runs after it in the simulation and
// counts, although it really ran before the first paint. Split out here so a lost point says
// whether it was the page's work or the browser's (which grows with the machine's load).
import fs from 'node:fs'

const CPU_SLOWDOWN = 4
const LONG_MS = 50

/**
 * @typedef {{ name: string, ph: string, ts: number, dur?: number, pid: number, tid: number,
 *   args?: { name?: string, data?: Record<string, any> } }} TraceEvent
 */

/**
 * @param {string} tracePath
 * @returns {{ commitMs: number, pageTasks: { label: string, atMs: number, ms: number, simulatedMs: number }[] } | undefined}
 */
export function traceBreakdown(tracePath) {
  if (!fs.existsSync(tracePath)) return undefined
  const parsed = JSON.parse(fs.readFileSync(tracePath, 'utf8'))
  /** @type {TraceEvent[]} */
  const events = parsed.traceEvents ?? parsed
  const navigation = events.find(
    (event) =>
      event.name === 'navigationStart' &&
      event.args?.data?.isLoadingMainFrame &&
      String(event.args.data.documentLoaderURL ?? '').startsWith('http'),
  )
  if (!navigation) return undefined
  const mainThread = events.find(
    (event) =>
      event.ph === 'M' &&
      event.name === 'thread_name' &&
      event.args?.name === 'CrRendererMain' &&
      event.pid === navigation.pid,
  )
  if (!mainThread) return undefined
  const onMain = events
    .filter(
      (event) =>
        event.pid === mainThread.pid &&
        event.tid === mainThread.tid &&
        event.ph === 'X' &&
        event.ts >= navigation.ts,
    )
    .sort((a, b) => a.ts - b.ts)
  const tasks = onMain.filter((event) => event.name === 'RunTask' && (event.dur ?? 0) > 0)
  /** @param {TraceEvent} task */
  const inside = (task) =>
    onMain.filter(
      (event) =>
        event !== task &&
        event.ts >= task.ts &&
        event.ts + (event.dur ?? 0) <= task.ts + (task.dur ?? 0),
    )
  let commitMs = 0
  const pageTasks = []
  for (const task of tasks) {
    const children = inside(task)
    const ms = (task.dur ?? 0) / 1000
    if (children.some((event) => event.name === 'DocumentLoader::CommitNavigation')) {
      commitMs = Math.max(commitMs, ms)
      continue
    }
    const simulatedMs = ms * (children.some((event) => event.name === 'Layout') ? 2 : CPU_SLOWDOWN)
    if (simulatedMs < LONG_MS) continue
    // The task's largest direct part names it (ParseHTML, Layout, TimerFire, FunctionCall…).
    const largest = topLevel(children).sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0]
    pageTasks.push({
      label: largest?.name ?? 'unlabelled',
      atMs: (task.ts - navigation.ts) / 1000,
      ms,
      simulatedMs,
    })
  }
  return { commitMs, pageTasks }
}

/**
 * The events directly under a task (events nest by time; sorted by start, longer first).
 * @param {TraceEvent[]} children
 */
function topLevel(children) {
  const sorted = children.toSorted((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
  const top = []
  let end = -Infinity
  for (const event of sorted) {
    if (event.ts >= end) {
      top.push(event)
      end = event.ts + (event.dur ?? 0)
    }
  }
  return top
}
