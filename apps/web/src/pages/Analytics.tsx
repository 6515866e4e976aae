import { getBackendClient } from '../backend/backend.ts'
import { Dashboard } from '../analytics/Dashboard.tsx'
import '../analytics/analytics.css'

/**
 * Analytics dashboard: page views and sign-ins recorded first-party by this site's server
 * (issue 7). Admins only; the chart library loads with this page alone.
 */
export default function Analytics() {
  return (
    <>
      <section id="analytics-intro">
        <h1>Analytics</h1>
        <p className="lead">
          Page views and sign-ins, recorded by this site&apos;s own server. Nothing is sent to a
          third party.
        </p>
      </section>
      <Dashboard client={getBackendClient()} />
    </>
  )
}
