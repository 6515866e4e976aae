import { useCallback, useEffect, useState } from 'react'
import { formatEther } from 'viem'
import { useAuth, useNode, useWallet, usePortico } from '@portico/react'
import { chainName } from '@portico/sdk/wallet'
import { ProfileSection } from '../profile/profile-section.tsx'
import { noteForSignInPrompt } from '../wallet/access-state.tsx'
import { describeDevice, isNoNode } from '../wallet/device.ts'
import { AddressActions } from '../wallet/address-actions.tsx'
import type { SessionInfo } from '@portico/sdk/portico'

/** Sessions listed before "Show all". */
const SESSIONS_SHOWN = 5

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
  const noNode = isNoNode(node.error)

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
          <dd>
            <span className="address" data-testid="account-address">
              {user?.address}
            </span>
            {user && <AddressActions address={user.address} chainId={user.chainId} />}
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
          <dd data-testid="account-chain">
            {user?.chainId === undefined
              ? 'unknown'
              : `${chainName(user.chainId)}, chain ${user.chainId}`}
          </dd>
          {noNode ? (
            <>
              <dt>Node</dt>
              <dd data-testid="account-no-node">
                This site has no node for chain {user?.chainId}, so its balance and blocks cannot be
                read here.
              </dd>
            </>
          ) : (
            <>
              <dt>Balance</dt>
              <dd data-testid="account-balance">
                {node.balance !== undefined
                  ? `${formatEther(node.balance)} ETH`
                  : node.error
                    ? 'The node did not answer; trying again shortly.'
                    : 'Reading…'}
              </dd>
              <dt>Block</dt>
              <dd data-testid="account-block">
                {node.blockNumber?.toString() ?? (node.error ? '—' : 'Reading…')}
              </dd>
            </>
          )}
        </dl>
      </section>
      {user && <ProfileSection userId={user.id} address={user.address} />}
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
  const auth = useAuth()
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [showAll, setShowAll] = useState(false)
  const [confirming, setConfirming] = useState<'this' | 'everywhere'>()
  const [busy, setBusy] = useState(false)

  const refresh = useCallback(() => {
    portico.listSessions().then(
      (list) => {
        const byUse = (session: SessionInfo) => Date.parse(session.lastSeenAt)
        setSessions(
          [...list].sort((a, b) => Number(b.current) - Number(a.current) || byUse(b) - byUse(a)),
        )
        setError(null)
      },
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
  // This browser's session ends by signing out (the server revokes it), so nothing is asked of
  // the server with a session it no longer knows; the sign-in prompt then says what happened.
  const signOutHere = async (note: string) => {
    noteForSignInPrompt(note)
    await auth.signOut()
  }
  const signOutEverywhere = async () => {
    setBusy(true)
    try {
      for (const session of sessions ?? []) {
        if (!session.current) await portico.revokeSession(session.id)
      }
      await signOutHere('You signed out everywhere: every session of your account has ended.')
    } catch (failure) {
      setError(
        (failure as { shortMessage?: string }).shortMessage ?? 'Could not sign out everywhere',
      )
      refresh()
    } finally {
      setBusy(false)
    }
  }

  const listed = sessions && (showAll ? sessions : sessions.slice(0, SESSIONS_SHOWN))
  return (
    <section className="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Your sessions</h2>
      <p className="muted">
        Every browser where you are signed in: this one first, then the most recently used.
      </p>
      {error && <p role="alert">{error}</p>}
      {listed === null ? (
        <p className="muted">Loading sessions…</p>
      ) : (
        <ul className="session-list">
          {listed.map((session) => (
            <li key={session.id}>
              <span>
                <strong>{describeDevice(session.userAgent)}</strong>
                {session.current && <span className="this-browser"> · This browser</span>}
                <br />
                <span className="muted small">
                  Last used {new Date(session.lastSeenAt).toLocaleString()} · signed in{' '}
                  {new Date(session.createdAt).toLocaleDateString()}
                </span>
              </span>
              {session.current ? (
                confirming === 'this' ? (
                  <span className="confirm" role="group" aria-label="Confirm">
                    <span>This signs you out here.</span>
                    <button
                      type="button"
                      onClick={() =>
                        void signOutHere(
                          "You revoked this browser's session, so you are signed out here.",
                        )
                      }
                    >
                      Sign out here
                    </button>
                    <button
                      type="button"
                      className="button-secondary"
                      onClick={() => setConfirming(undefined)}
                    >
                      Cancel
                    </button>
                  </span>
                ) : (
                  <button
                    type="button"
                    className="button-secondary"
                    onClick={() => setConfirming('this')}
                    aria-label="Revoke session (this browser)"
                  >
                    Revoke
                  </button>
                )
              ) : (
                <button
                  type="button"
                  className="button-secondary"
                  onClick={() => void revoke(session.id)}
                  aria-label={`Revoke session (${describeDevice(session.userAgent)}, last used ${new Date(session.lastSeenAt).toLocaleString()})`}
                >
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {sessions && sessions.length > SESSIONS_SHOWN && !showAll && (
        <p>
          <button type="button" className="button-secondary" onClick={() => setShowAll(true)}>
            Show all {sessions.length} sessions
          </button>
        </p>
      )}
      <p className="actions">
        {confirming === 'everywhere' ? (
          <span className="confirm" role="group" aria-label="Confirm signing out everywhere">
            <span>Every browser signed in to your account, this one too, will be signed out.</span>
            <button type="button" disabled={busy} onClick={() => void signOutEverywhere()}>
              Sign out everywhere
            </button>
            <button
              type="button"
              className="button-secondary"
              onClick={() => setConfirming(undefined)}
            >
              Cancel
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="button-secondary"
            onClick={() => setConfirming('everywhere')}
          >
            Sign out everywhere…
          </button>
        )}
      </p>
    </section>
  )
}
