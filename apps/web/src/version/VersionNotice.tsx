import { useEffect, useState } from 'react'
import './version-notice.css'
import { createSafeStorage, type KeyValueStore } from '../theme/storage.ts'
import { whenIdle } from '../tracking/tracker.ts'
import { DISMISSED_KEY, type VersionNotice as Notice } from './version.ts'

// The check and the version comparison load after the first paint, in their own chunk.
const checkForNotice = async (dismissed: string | null) =>
  (await import('./check.ts')).checkForNotice(dismissed)

/**
 * A small notice when the app's SDK is older than the latest release (issue 7), asked once on
 * start when the browser is idle. Dismissing it hides it for that release; a newer release
 * shows it again. A failed check shows nothing (the app works either way).
 */
export function VersionNotice({
  check = checkForNotice,
  storage,
  schedule = whenIdle,
}: {
  check?: (dismissed: string | null) => Promise<Notice | null>
  storage?: KeyValueStore
  schedule?: (run: () => void) => void
}) {
  const [store] = useState(() => storage ?? createSafeStorage(() => window.localStorage))
  const [notice, setNotice] = useState<Notice | null>(null)

  useEffect(() => {
    let cancelled = false
    schedule(() => {
      check(store.get(DISMISSED_KEY)).then(
        (next) => {
          if (!cancelled) setNotice(next)
        },
        (error: unknown) => console.debug('Portico: the version check failed', error),
      )
    })
    return () => {
      cancelled = true
    }
  }, [check, store, schedule])

  if (!notice) return null
  const dismiss = () => {
    store.set(DISMISSED_KEY, notice.latest)
    setNotice(null)
  }
  return (
    <aside className="version-notice" role="status" aria-label="SDK version">
      <p>
        {notice.kind === 'unsupported'
          ? `This site's Portico SDK (${notice.current}) is older than the server supports; some features may not work.`
          : `A newer Portico SDK (${notice.latest}) is available; this site uses ${notice.current}.`}
      </p>
      {notice.kind === 'outdated' && (
        <button type="button" className="button-secondary" onClick={dismiss}>
          Dismiss
        </button>
      )}
    </aside>
  )
}
