import { useCallback, useEffect, useState } from 'react'
import { formatEther } from 'viem'
import { useAuth, useNode, useWallet, usePortico } from '@portico/react'
import { ProfileSection } from '../profile/profile-section.tsx'
import type { SessionInfo } from '@portico/sdk/portico'

/**
 * Account (signed-in users only; the page table's `auth: 'required'` asks others to sign in):
 * address, chain, balance read through the node connection, the user's sessions with revoke,
 * and sign out.
 */
export default function Account() {
  const auth = useAuth()
  const user = auth.user
  const node = useNode({ chainId: user?.chainId, address: user?.address })
  const wallet = useWallet()
  const connector = wallet.connectors.find((c) => c.id === wallet.connectorId)

  return (
    <>
      <section id="account-intro" data-reveal>
        <h1>Your account</h1>
        <p className="lead">
          You are signed in with your wallet. Your session lives on this site&apos;s own server and
          ends when you sign out.
        </p>
      </section>
      <section className="card" aria-labelledby="wallet-heading">
        <h2 id="wallet-heading">Wallet</h2>
        <dl className="account-details">
          <dt>Address</dt>
          <dd className="address" data-testid="account-address">
            {user?.address}
          </dd>
          <dt>Wallet</dt>
          <dd data-testid="account-wallet">
            {wallet.status === 'connected'
              ? (connector?.name ?? 'Connected')
              : wallet.status === 'reconnecting' || wallet.status === 'loading'
                ? 'Reconnecting…'
                : 'Not connected'}
          </dd>
          <dt>Chain</dt>
          <dd data-testid="account-chain">{user?.chainId ?? 'unknown'}</dd>
          <dt>Balance</dt>
          <dd data-testid="account-balance">
            {node.balance !== undefined
              ? `${formatEther(node.balance)} ETH`
              : node.error
                ? 'Could not be read from the node'
                : 'Reading…'}
          </dd>
          <dt>Block</dt>
          <dd data-testid="account-block">{node.blockNumber?.toString() ?? '…'}</dd>
        </dl>
      </section>
      {user && <ProfileSection userId={user.id} />}
      <Sessions />
      <section className="card" aria-labelledby="sign-out-heading">
        <h2 id="sign-out-heading">Sign out</h2>
        <p>Ends this session on the server and disconnects the wallet from this site.</p>
        <button type="button" onClick={() => void auth.signOut()} disabled={!auth.isAuthenticated}>
          Sign out
        </button>
      </section>
    </>
  )
}

function Sessions() {
  const portico = usePortico()
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  const refresh = useCallback(() => {
    portico.listSessions().then(
      (list) => (setSessions(list), setError(null)),
      (failure: { shortMessage?: string }) =>
        setError(failure.shortMessage ?? 'Could not load sessions'),
    )
  }, [portico])
  useEffect(refresh, [refresh])

  const revoke = async (id: string) => {
    try {
      await portico.revokeSession(id)
      refresh()
    } catch (failure) {
      setError((failure as { shortMessage?: string }).shortMessage ?? 'Could not revoke')
    }
  }

  return (
    <section className="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Your sessions</h2>
      {error && <p role="alert">{error}</p>}
      {sessions === null ? (
        <p className="muted">Loading sessions…</p>
      ) : (
        <ul className="session-list">
          {sessions.map((session) => (
            <li key={session.id}>
              <span>
                {session.current ? <strong>This browser</strong> : describe(session.userAgent)}
                <br />
                <span className="muted small">
                  Signed in {new Date(session.createdAt).toLocaleString()} · expires{' '}
                  {new Date(session.expiresAt).toLocaleString()}
                </span>
              </span>
              <button
                type="button"
                className="button-secondary"
                onClick={() => void revoke(session.id)}
                aria-label={`Revoke session ${session.current ? '(this browser)' : describe(session.userAgent)}`}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function describe(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device'
  const browser = /(Firefox|Edg|Chrome|Safari)\/[\d.]+/.exec(userAgent)?.[1] ?? 'Browser'
  return `${browser === 'Edg' ? 'Edge' : browser} session`
}
