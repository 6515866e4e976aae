import type { ComponentType } from 'react'
import { Link } from 'wouter'
import { useAuth } from '@portico/react'
import { useBackendClient } from '../backend/use-backend-client.ts'
import { useServerData, type Loaded } from '../backend/use-server-data.ts'
import { PageLoading } from '../ui/page-loading.tsx'
import { SignInFirst } from '../wallet/access-state.tsx'
import { NotAllowed } from '../shell/not-allowed.tsx'
import { Overview } from './overview.tsx'
import { Users } from './users.tsx'
import { Objects } from './objects.tsx'
import { Roles } from './roles.tsx'
import { Files } from './files.tsx'
import { ApiKeys } from './api-keys.tsx'
import { Settings } from './settings.tsx'
import { AuditLog } from './audit-log.tsx'
import { Import } from './import.tsx'
import { Syncs } from './syncs.tsx'
import { Web3Api } from './web3api.tsx'
import { CloudJobs } from './cloud-jobs.tsx'
import { CloudLogs } from './cloud-logs.tsx'
import type { Role, SectionProps } from './section.ts'
import { consoleCall } from './console-api.ts'
import './admin.css'

const sections: { path: string; label: string; view: ComponentType<SectionProps> }[] = [
  { path: '', label: 'Overview', view: Overview },
  { path: 'users', label: 'Users', view: Users },
  { path: 'objects', label: 'Objects', view: Objects },
  { path: 'roles', label: 'Roles', view: Roles },
  { path: 'files', label: 'Files', view: Files },
  { path: 'syncs', label: 'Syncs', view: Syncs },
  { path: 'web3api', label: 'Web3 API', view: Web3Api },
  { path: 'keys', label: 'API keys', view: ApiKeys },
  { path: 'settings', label: 'Settings', view: Settings },
  { path: 'jobs', label: 'Jobs', view: CloudJobs },
  { path: 'logs', label: 'Logs', view: CloudLogs },
  { path: 'audit', label: 'Audit log', view: AuditLog },
  { path: 'import', label: 'Import', view: Import },
]

type Access =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'forbidden' }
  | { status: 'error'; message: string }
  | { status: 'ready'; role: Role; address: string }

/**
 * The admin console: who may see it is decided by the server (`/api/admin/me`); everyone else
 * is told why, and the section views only ever show what the API answered.
 */
export function Console({ section = '' }: { section?: string }) {
  const auth = useAuth()
  const client = useBackendClient()
  const me = useServerData({
    // Asked again for each signed-in user.
    key: ['console', 'me', auth.user?.id],
    read: (signal) => consoleCall(client!, 'GET /api/admin/me', { signal }),
    // Only the team has a role: anyone else is refused without asking the server.
    enabled: client !== undefined && auth.user?.role !== undefined,
    whileReading: 'loading',
  })
  const access: Access =
    auth.status === 'undefined'
      ? { status: 'loading' }
      : !auth.user
        ? { status: 'signed-out' }
        : !auth.user.role
          ? { status: 'forbidden' }
          : accessOf(me.state)

  const current = sections.find((s) => s.path === section)
  if (access.status === 'loading') return <PageLoading />
  if (access.status !== 'ready' || !client)
    return (
      <section className="console-refused">
        <h1>Console</h1>
        {access.status === 'signed-out' ? (
          <SignInFirst what="the console" />
        ) : access.status === 'forbidden' ? (
          <NotAllowed what="the console" />
        ) : (
          <p className="card" role="alert">
            {access.status === 'error' ? access.message : ''}
          </p>
        )}
      </section>
    )

  const View = current?.view
  return (
    <div className="console">
      {section === 'objects' ? <SkipToGrid /> : null}
      <header className="console-header">
        <h1>Console</h1>
        <p className="muted">
          {access.role === 'admin' ? 'Admin' : 'Viewer: you can look, not change'} ·{' '}
          <span className="address">{access.address}</span>
        </p>
      </header>
      <nav aria-label="Console sections" className="console-nav">
        <ul>
          {sections.map((s) => (
            <li key={s.path}>
              <Link
                href={s.path ? `/admin/${s.path}` : '/admin'}
                aria-current={s.path === section ? 'page' : undefined}
              >
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {View ? (
        <View client={client} role={access.role} />
      ) : (
        <p role="alert">No such console section.</p>
      )}
    </div>
  )
}

/**
 * The data browser's keyboard path: past the console's sections, filters and header row to the
 * grid's current cell or row control (the row's first cell until another was chosen), or to the section's
 * heading while the grid is empty.
 */
function SkipToGrid() {
  return (
    <a
      className="skip-link"
      href="#objects-grid"
      onClick={(event) => {
        event.preventDefault()
        const target =
          document.querySelector<HTMLElement>('[role="grid"] tbody [tabindex="0"]') ??
          document.querySelector<HTMLElement>('.console h2')
        if (target && !target.hasAttribute('tabindex')) target.tabIndex = -1
        target?.focus()
      }}
    >
      Skip to the grid
    </a>
  )
}

/** What `/api/admin/me` answered a signed-in user. */
function accessOf(me: Loaded<{ role: Role; address: string }>): Access {
  if (me.status !== 'error') return me.status === 'ready' ? { status: 'ready', ...me.data } : me
  const error = me.error as { status?: number; shortMessage?: string }
  if (error.status === 401) return { status: 'signed-out' }
  if (error.status === 403) return { status: 'forbidden' }
  return { status: 'error', message: error.shortMessage ?? 'The console did not answer.' }
}
