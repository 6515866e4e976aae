import { useCallback, useEffect, useState } from 'react'
import { usePortico } from '@portico/react/PorticoProvider'
import './version-notice.css'
import { createSafeStorage, type KeyValueStore } from '../theme/storage.ts'
import { whenIdle } from '../tracking/tracker.ts'
import { DISMISSED_KEY, type VersionNotice as NoticeContent } from './version.ts'

/** Asks the server and decides what to show, given the release already dismissed. */
export type VersionCheck = (dismissed: string | null) => Promise<NoticeContent | null>

/** The app's notice: the check (and the version comparison) load after the first paint. */
export function AppVersionNotice() {
  const portico = usePortico()
  const check = useCallback<VersionCheck>(
    async (dismissed) => {
      const [client, { checkForNotice }] = await Promise.all([
        portico.backend(),
        import('./check.ts'),
      ])
      return checkForNotice(client, dismissed)
    },
    [portico],
  )
  return <VersionNotice check={check} />
}

/**
 * A small notice when the app's SDK is older than the latest release (issue 7), checked once on
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
  const [notice, setNotice] = useState<NoticeContent | null>(null)

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
