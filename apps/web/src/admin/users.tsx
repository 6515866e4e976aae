import { useState } from 'react'
import type { SectionProps } from './console.tsx'
import { change, dateTime, useAdmin } from './use-admin.ts'

interface UserRow {
  id: string
  address: string
  firstSignInAt: string
  lastSignInAt: string
  activeSessions: number
  lastSeenAt: string | null
}
interface SessionRow {
  id: string
  chainId: number
  userAgent: string | null
  createdAt: string
  lastSeenAt: string
  expiresAt: string
  revokedAt: string | null
}

/** Users by latest sign-in, searchable by address; a user's sessions, revocable. */
export function Users({ client, role }: SectionProps) {
  const [search, setSearch] = useState('')
  const [open, setOpen] = useState<UserRow>()
  const { state, reload } = useAdmin<{ results: UserRow[] }>(client, 'users', {
    search: search.trim() || undefined,
  })
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">Users</h2>
      <p>
        <label>
          Search by address{' '}
          <input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="0x…"
          />
        </label>
      </p>
      {state.status === 'error' ? <p role="alert">{state.message}</p> : null}
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
        <table>
          <caption>Users</caption>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">First sign-in</th>
              <th scope="col">Last sign-in</th>
              <th scope="col" className="numeric">
                Active sessions
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {state.status === 'ready'
              ? state.data.results.map((user) => (
                  <tr key={user.id}>
                    <td className="address">{user.address}</td>
                    <td>{dateTime(user.firstSignInAt)}</td>
                    <td>{dateTime(user.lastSignInAt)}</td>
                    <td className="numeric">{user.activeSessions}</td>
                    <td>
                      <button
                        type="button"
                        className="button-secondary"
                        onClick={() => setOpen(user)}
                        aria-label={`Sessions of ${user.address}`}
                      >
                        Sessions
                      </button>
                    </td>
                  </tr>
                ))
              : null}
          </tbody>
        </table>
      </div>
      {open ? (
        <UserSessions key={open.id} client={client} role={role} user={open} onChanged={reload} />
      ) : null}
    </section>
  )
}

function UserSessions({
  client,
  role,
  user,
  onChanged,
}: SectionProps & { user: UserRow; onChanged: () => void }) {
  const { state, reload } = useAdmin<{ results: SessionRow[] }>(client, `users/${user.id}/sessions`)
  const [message, setMessage] = useState<string>()
  const revoke = async (path: string, done: string) => {
    const failed = await change(() => client.request('POST', `/api/admin/${path}`))
    setMessage(failed ?? done)
    reload()
    onChanged()
  }
  return (
    <section className="card" aria-labelledby="sessions-heading">
      <h3 id="sessions-heading">
        Sessions of <span className="address">{user.address}</span>
      </h3>
      {message ? <p role="status">{message}</p> : null}
      {role === 'admin' ? (
        <p>
          <button
            type="button"
            onClick={() =>
              revoke(`users/${user.id}/revoke-sessions`, 'Every session of this user was revoked.')
            }
          >
            Revoke all sessions
          </button>
        </p>
      ) : null}
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Table, scrolls sideways">
        <table>
          <caption className="visually-hidden">Sessions</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Chain</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {state.status === 'ready'
              ? state.data.results.map((session) => {
                  const ended = session.revokedAt
                    ? 'Revoked'
                    : new Date(session.expiresAt) < new Date()
                      ? 'Expired'
                      : 'Active'
                  return (
                    <tr key={session.id}>
                      <td className="user-agent">{session.userAgent ?? 'Unknown device'}</td>
                      <td>{session.chainId}</td>
                      <td>{dateTime(session.createdAt)}</td>
                      <td>{dateTime(session.lastSeenAt)}</td>
                      <td>{ended}</td>
                      <td>
                        {role === 'admin' && ended === 'Active' ? (
                          <button
                            type="button"
                            className="button-secondary"
                            onClick={() =>
                              revoke(`sessions/${session.id}/revoke`, 'The session was revoked.')
                            }
                          >
                            Revoke
                          </button>
                        ) : null}
                      </td>
                    </tr>
                  )
                })
              : null}
          </tbody>
        </table>
      </div>
    </section>
  )
}
