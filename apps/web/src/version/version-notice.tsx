import { lazy, Suspense, useEffect, useState } from 'react'
import { createSafeStorage, type KeyValueStore } from '../storage/safe-storage.ts'
import { whenIdle } from '../tracking/tracker.ts'
import { DISMISSED_KEY, type VersionNotice as Notice } from './version.ts'

// Most visits have no notice to show: its view (and stylesheet) loads only when there is one.
const NoticeView = lazy(() => import('./notice-view.tsx'))

/** Asks the server and decides what to show, given the release already dismissed. */
export type VersionCheck = (dismissed: string | null) => Promise<Notice | null>

const checkWithBeacon: VersionCheck = async (dismissed) =>
  (await import('../background/beacon.ts')).checkForNotice(dismissed)

/** The app's notice: the check loads on the first idle moment, the notice only when needed. */
export function AppVersionNotice() {
  return <VersionNotice check={checkWithBeacon} />
}

/**
 * A small notice when the app's SDK is older than the latest release, checked once on
 * start when the browser is idle. Dismissing it hides it for that release; a newer release
 * shows it again. A failed check shows nothing (the app works either way).
 */
export function VersionNotice({
  check,
  storage,
  schedule = whenIdle,
}: {
  check: VersionCheck
  storage?: KeyValueStore
  schedule?: (run: () => void) => void
}) {
  const [store] = useState(() => storage ?? createSafeStorage(() => window.localStorage))
  const [notice, setNotice] = useState<Notice | null>(null)

  useEffect(() => {
    let cancelled = false
    schedule(() => {
      check(store.getItem(DISMISSED_KEY)).then(
        (next) => !cancelled && setNotice(next),
        (error: unknown) => console.debug('Portico: the version check failed', error),
      )
    })
    return () => {
      cancelled = true
    }
  }, [check, store, schedule])

  if (!notice) return null
  const dismiss = () => {
    store.setItem(DISMISSED_KEY, notice.latest)
    setNotice(null)
  }
  return (
    <Suspense fallback={null}>
      <NoticeView notice={notice} onDismiss={dismiss} />
    </Suspense>
  )
}
