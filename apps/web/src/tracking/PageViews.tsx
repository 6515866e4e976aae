import { useEffect, useRef, useState } from 'react'
import { useLocation } from 'wouter'
import { usePortico } from '@portico/react/PorticoProvider'
import type { Portico } from '@portico/sdk/portico/createPortico'
import { createTracker, type Tracker } from './tracker.ts'

/** The tracker of the running app: sender loaded lazily, privacy signals checked per event. */
export function createAppTracker(portico: Pick<Portico, 'backend'>): Tracker {
  return createTracker({
    load: async () => {
      const [client, { createEventSender }] = await Promise.all([
        portico.backend(),
        import('./send.ts'),
      ])
      return createEventSender(client, window.location.hostname)
    },
    onError: (error) => console.debug('Portico: an event could not be sent', error),
  })
}

/** Page views of the running app, sent through the Portico client's backend. */
export function AppPageViews() {
  const portico = usePortico()
  const [tracker] = useState(() => createAppTracker(portico))
  return <PageViews tracker={tracker} />
}

/**
 * Tracks a `page_view` on the first render and on every route change (issue 7). Renders
 * nothing. Only the path is sent: the query string and hash may hold personal data.
 */
export function PageViews({ tracker }: { tracker: Tracker }) {
  const [location] = useLocation()
  const last = useRef<string | null>(null)

  useEffect(() => {
    // StrictMode runs effects twice on mount; one view per location change.
    if (last.current === location) return
    last.current = location
    tracker.track('page_view', { path: location })
  }, [location, tracker])

  return null
}
