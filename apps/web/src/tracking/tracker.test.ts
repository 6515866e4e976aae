import { describe, expect, it, vi } from 'vitest'
import { createTracker, type EventSender } from './tracker.ts'

function manualSchedule() {
  const pending: (() => void)[] = []
  return {
    schedule: (run: () => void) => void pending.push(run),
    runAll: () => pending.splice(0).forEach((run) => run()),
    get count() {
      return pending.length
    },
  }
}

describe('createTracker', () => {
  it('queues events and sends them, in order, when the browser is idle', async () => {
    const sent: unknown[] = []
    const send: EventSender = async (event, options) => void sent.push([event, options])
    const load = vi.fn(async () => send)
    const idle = manualSchedule()
    const tracker = createTracker({ allowed: () => true, load, schedule: idle.schedule })
    tracker.track('page_view', { path: '/' })
    tracker.track('page_view', { path: '/account' })
    expect(idle.count).toBe(1)
    expect(load).not.toHaveBeenCalled()
    idle.runAll()
    await tracker.flush()
    expect(sent).toEqual([
      ['page_view', { path: '/' }],
      ['page_view', { path: '/account' }],
    ])
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('sends, loads and schedules nothing when tracking is not allowed', async () => {
    const load = vi.fn(async () => (async () => undefined) as EventSender)
    const idle = manualSchedule()
    const tracker = createTracker({ allowed: () => false, load, schedule: idle.schedule })
    tracker.track('page_view', { path: '/' })
    await tracker.flush()
    expect(idle.count).toBe(0)
    expect(load).not.toHaveBeenCalled()
  })

  it('reports a failed send and goes on with the next event', async () => {
    const errors: unknown[] = []
    const sent: string[] = []
    const send: EventSender = async (event) => {
      if (event === 'bad') throw new Error('offline')
      sent.push(event)
    }
    const tracker = createTracker({
      allowed: () => true,
      load: async () => send,
      schedule: () => undefined,
      onError: (error) => errors.push(error),
    })
    tracker.track('bad')
    tracker.track('good')
    await tracker.flush()
    expect(sent).toEqual(['good'])
    expect(errors).toHaveLength(1)
  })
})
