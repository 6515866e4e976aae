import { useEffect, useRef, useState } from 'react'
import { useLocation } from 'wouter'
import { createTracker, type Tracker } from './tracker.ts'

/** The tracker of the running app: sender loaded lazily, privacy signals checked per event. */
export function createAppTracker(): Tracker {
  return createTracker({
    load: async () => (await import('./send.ts')).sendEvent,
    onError: (error) => console.debug('Portico: an event could not be sent', error),
  })
}

/**
 * Tracks a `page_view` on the first render and on every route change (issue 7). Renders
 * nothing. The path is sent without its query string, which may hold personal data.
 */
export function PageViews({ tracker }: { tracker?: Tracker }) {
  const [location] = useLocation()
  const [active] = useState(() => tracker ?? createAppTracker())
  const last = useRef<string | null>(null)

  useEffect(() => {
    // StrictMode runs effects twice on mount; one view per location change.
    if (last.current === location) return
    last.current = location
    active.track('page_view', { path: location })
  }, [location, active])

  return null
}
