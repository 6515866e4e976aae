import './version-notice.css'
import type { VersionNotice } from './version.ts'

/** The notice itself; its code loads only when there is something to show. */
export default function NoticeView({
  notice,
  onDismiss,
}: {
  notice: VersionNotice
  onDismiss: () => void
}) {
  return (
    <aside className="version-notice" role="status" aria-label="SDK version">
      <p>
        {notice.kind === 'unsupported'
          ? `This site's Portico SDK (${notice.current}) is older than the server supports; some features may not work.`
          : `A newer Portico SDK (${notice.latest}) is available; this site uses ${notice.current}.`}
      </p>
      {notice.kind === 'outdated' && (
        <button type="button" className="button-secondary" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </aside>
  )
}
