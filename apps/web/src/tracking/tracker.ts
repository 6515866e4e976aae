import { browserTrackingAllowed } from '@portico/sdk/events'

/** Sends one event to the server (the SDK's trackEvent, loaded when first needed). */
export type EventSender = (event: string, options: Record<string, unknown>) => Promise<unknown>

export interface TrackerConfig {
  /** Asked before every event: false → nothing is queued, loaded or sent. */
  allowed?: () => boolean
  /** Loads the sender; called once, on the first flush (keeps it out of the first paint). */
  load: () => Promise<EventSender>
  /** Runs a flush when the browser is idle. */
  schedule?: (run: () => void) => void
  /** Told about failures (tracking never breaks the page). */
  onError?: (error: unknown) => void
}

export interface Tracker {
  /** Queues an event; it is sent when the browser is idle. */
  track(event: string, options?: Record<string, unknown>): void
  /** Sends what is queued now; resolves when done (used by tests). */
  flush(): Promise<void>
}

/** `requestIdleCallback` where there is one (with a 2 s cap), else a macrotask. */
export function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 })
  else setTimeout(run, 1)
}

/**
 * First-party event tracking: events are queued and sent in the background, never
 * when the browser asks not to be tracked (Do-Not-Track, Global Privacy Control).
 *
 * @example
 * const tracker = createTracker({ load: async () => (await import('./send.ts')).sendEvent })
 * tracker.track('page_view', { path: '/' })
 */
export function createTracker(config: TrackerConfig): Tracker {
  const allowed = config.allowed ?? browserTrackingAllowed
  const schedule = config.schedule ?? whenIdle
  const queue: { event: string; options: Record<string, unknown> }[] = []
  let sender: Promise<EventSender> | undefined
  let scheduled = false
  let running: Promise<void> = Promise.resolve()

  async function drain() {
    while (queue.length > 0) {
      const next = queue.shift()!
      try {
        sender ??= config.load()
        await (
          await sender
        )(next.event, next.options)
      } catch (error) {
        // A failed load may succeed later (e.g. after a deploy): try loading again next time.
        sender = undefined
        config.onError?.(error)
      }
    }
  }

  function flush() {
    scheduled = false
    running = running.then(drain)
    return running
  }

  return {
    track(event, options = {}) {
      if (!allowed()) return
      queue.push({ event, options })
      if (!scheduled) {
        scheduled = true
        schedule(() => void flush())
      }
    },
    flush,
  }
}
