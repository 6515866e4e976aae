/**
 * Analytics dashboard: page views and sign-ins recorded first-party by this site's server
 * (a later issue adds the data and charts; chart code will load only on this page).
 */
export default function Analytics() {
  return (
    <>
      <section data-reveal id="analytics-intro">
        <h1>Analytics</h1>
        <p className="lead">
          Page views and sign-ins, recorded by this site&apos;s own server. Nothing is sent to a
          third party.
        </p>
      </section>
      <section data-reveal id="analytics-details" className="card">
        <h2>What this dashboard will show</h2>
        <ul>
          <li>Page views per day and the most visited pages.</li>
          <li>Sign-ins per day and how many distinct wallets signed in.</li>
          <li>The raw events, filterable by name and date.</li>
        </ul>
        <p className="muted">No events have been recorded yet.</p>
      </section>
    </>
  )
}
