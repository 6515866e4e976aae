import { useEffect, useRef, useState } from 'react'
import { useLocation } from 'wouter'
import { createTracker, type Tracker } from './tracker.ts'

/** The app's page views: the sender (background/beacon.ts) loads on the first idle moment. */
export function AppPageViews() {
  const [tracker] = useState(() =>
    createTracker({
      load: async () => (await import('../background/beacon.ts')).sendEvent,
      onError: (error) => console.debug('Portico: an event could not be sent', error),
    }),
  )
  return <PageViews tracker={tracker} />
}

/** The console is the site team at work, not the site's traffic: its pages are not counted. */
const isConsole = (path: string) => path === '/admin' || path.startsWith('/admin/')

/**
 * Tracks a `page_view` on the first render and on every route change, except in the console.
 * Renders nothing. Only the path is sent: the query string and hash may hold personal data.
 */
export function PageViews({ tracker }: { tracker: Tracker }) {
  const [location] = useLocation()
  const last = useRef<string | null>(null)

  useEffect(() => {
    // StrictMode runs effects twice on mount; one view per location change.
    if (last.current === location) return
    last.current = location
    if (!isConsole(location)) tracker.track('page_view', { path: location })
  }, [location, tracker])

  return null
}
