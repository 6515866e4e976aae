import { lazy, Suspense } from 'react'
import { RecentActivity, useAuth } from '@portico/react'
import type { BackendClient } from '@portico/sdk/backend'
import { useBackendClient } from '../backend/use-backend-client.ts'
import { useServerData } from '../backend/use-server-data.ts'
import { SignInFirst } from '../wallet/access-state.tsx'
import { NotAllowed } from '../shell/not-allowed.tsx'
import { PageLoading } from '../ui/page-loading.tsx'
import '../analytics/analytics.css'

/** The dashboard and its charts load only for the team: a visitor gets the prompt at once. */
const Dashboard = lazy(() =>
  import('../analytics/dashboard.tsx').then((module) => ({ default: module.Dashboard })),
)

/**
 * The class the Recent activity section shows: one a contract-event sync fills
 * (`defineSync({ className })` in the server's FUNCTIONS_MODULE).
 */
const ACTIVITY_CLASS = 'Activity'

/**
 * Analytics dashboard: page views and sign-ins recorded first-party by this site's server
 *. Admins only (the server answers 403 to anyone else); signed-out visitors are asked
 * to sign in without a request being made. The chart library loads with the dashboard alone.
 * Below it, everyone sees the site's contract events live (Recent activity), when the site
 * syncs contract events into that class at all.
 */
export default function Analytics() {
  const auth = useAuth()
  const client = useBackendClient()
  const synced = useSyncedClass(client, ACTIVITY_CLASS)
  return (
    <>
      <section data-reveal id="analytics-intro">
        <h1>Analytics</h1>
        <p className="lead">
          Page views and sign-ins, recorded by this site&apos;s own server. Nothing is sent to a
          third party.
        </p>
      </section>
      <div data-reveal id="analytics-details">
        {auth.status === 'undefined' || (auth.user && !client) ? (
          <PageLoading />
        ) : auth.user && !auth.user.role ? (
          // Known from the session: no request that the server would refuse.
          <NotAllowed what="the analytics" />
        ) : auth.user && client ? (
          // A new account starts from a fresh dashboard.
          <Suspense fallback={<PageLoading />}>
            <Dashboard key={auth.user.id} client={client} />
          </Suspense>
        ) : (
          <SignInFirst what="the analytics" />
        )}
      </div>
      {synced && (
        <section data-reveal id="recent-activity">
          <h2>Recent activity</h2>
          <p>Events of this site&apos;s contracts, newest first, as they are mined.</p>
          <RecentActivity
            className={ACTIVITY_CLASS}
            empty="No activity yet: events appear here as soon as they are mined."
          />
        </section>
      )}
    </>
  )
}

/**
 * Whether a contract-event sync fills `className` (the server's health lists its syncs). Not
 * known, or not answered: no (an empty "Recent activity" would only puzzle).
 */
function useSyncedClass(client: BackendClient | undefined, className: string): boolean {
  const { state } = useServerData({
    key: ['health', 'syncs'],
    read: (signal) =>
      client!.request<{ syncs?: { className: string }[] }>('GET', '/api/health', { signal }),
    enabled: client !== undefined,
  })
  return state.status === 'ready' && (state.data.syncs ?? []).some((s) => s.className === className)
}
