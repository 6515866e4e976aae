/**
 * Account: where a visitor connects a wallet and signs in (issue 4 fills in the live parts).
 * Until then it explains what it will show.
 */
export default function Account() {
  return (
    <>
      <section data-reveal id="account-intro">
        <h1>Your account</h1>
        <p className="lead">
          Connect a wallet and sign in with Ethereum to see your account. Your session lives on this
          site&apos;s own server and ends when you sign out.
        </p>
      </section>
      <section data-reveal id="account-details" className="card">
        <h2>What you will find here</h2>
        <ul>
          <li>The connected wallet: its address, network and how it is connected.</li>
          <li>Your sign-in session: when it started and when it expires.</li>
          <li>A sign-out button that ends the session on the server as well.</li>
        </ul>
        <p className="muted">Wallet connection is not available yet.</p>
      </section>
    </>
  )
}
