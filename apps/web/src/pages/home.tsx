import { Link } from 'wouter'

const FEATURES = [
  {
    id: 'wallets',
    title: 'Connect any wallet',
    text: 'Browser wallets found through EIP-6963, WalletConnect, an email link or a social login. Each vendor SDK downloads only when someone picks it, so the first page stays light.',
  },
  {
    id: 'sign-in',
    title: 'Sign in with Ethereum',
    text: 'EIP-4361 messages signed by the wallet and checked strictly on your server: domain, nonce, expiry and signature, contract wallets included. Sessions are real, revocable server sessions.',
  },
  {
    id: 'nodes',
    title: 'Node access that fails over',
    text: 'JSON-RPC to several nodes per chain, in order, with time-outs and polite retries when a node throttles. A gateway keeps your node URLs and keys on the server.',
  },
  {
    id: 'data',
    title: 'Your data, your database',
    text: 'JSON objects and files with owner-based access, safe retries that never write twice, and batches. Embedded by default, PostgreSQL when you need to scale out.',
  },
  {
    id: 'analytics',
    title: 'First-party analytics',
    text: 'Page views and sign-ins are recorded by your own server and shown on a dashboard. No third-party request leaves the browser on load.',
  },
] as const

/** The landing page: pre-rendered into index.html at build time and hydrated. */
export default function Home() {
  return (
    <>
      <section className="hero" data-reveal id="hero">
        <p className="eyebrow">Self-hosted application shell</p>
        <h1>Build blockchain-connected sites on your own server</h1>
        <p className="lead">
          Portico gives a site wallet connection, sign-in with a wallet, node access with failover,
          an object store and first-party analytics — one Node process, one port, your database.
        </p>
        <p className="actions">
          <Link href="/account" className="button">
            Open your account
          </Link>
          <Link href="/analytics" className="button button-secondary">
            See the analytics
          </Link>
        </p>
      </section>
      <div className="feature-list">
        {FEATURES.map((feature) => (
          <section key={feature.id} id={feature.id} className="feature" data-reveal>
            <h2>{feature.title}</h2>
            <p>{feature.text}</p>
          </section>
        ))}
      </div>
      <section className="closing" id="get-started" data-reveal>
        <h2>Two commands</h2>
        <p>
          <code>npm install</code> then <code>npm start</code> serves the app and its API on one
          port with an embedded database. Nothing else to run.
        </p>
      </section>
    </>
  )
}
