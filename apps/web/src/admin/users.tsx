import { useState } from 'react'
import type { SectionProps } from './section.ts'
import { ConsoleTable } from './console-table.tsx'
import { change, dateTime } from './use-admin.ts'
import { consoleCall, useConsole } from './console-api.ts'
import type { ConsoleSessionRow as SessionRow, ConsoleUserRow as UserRow } from '@portico/sdk/wire'
import { DeleteUser } from './delete-user.tsx'

/** Whether a session can still be used. */
const stateOf = (session: SessionRow) =>
  session.revokedAt ? 'Revoked' : new Date(session.expiresAt) < new Date() ? 'Expired' : 'Active'

/** Users by latest sign-in, searchable by address; a user's sessions, revocable. */
export function Users({ client, role }: SectionProps) {
  const [search, setSearch] = useState('')
  const [open, setOpen] = useState<UserRow>()
  const { state, reload } = useConsole(client, 'GET /api/admin/users', {
    query: { search: search.trim() || undefined },
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
      <ConsoleTable
        state={state}
        rows={(data) => data.results}
        rowKey={(user) => user.id}
        caption="Users"
        columns={[
          { header: 'Address', className: 'address', cell: (user) => user.address },
          { header: 'First sign-in', cell: (user) => dateTime(user.firstSignInAt) },
          { header: 'Last sign-in', cell: (user) => dateTime(user.lastSignInAt) },
          { header: 'Active sessions', numeric: true, cell: (user) => user.activeSessions },
          {
            header: 'Actions',
            headerHidden: true,
            cell: (user) => (
              <button
                type="button"
                className="button-secondary"
                onClick={() => setOpen(user)}
                aria-label={`Sessions of ${user.address}`}
              >
                Sessions
              </button>
            ),
          },
        ]}
      />
      {open ? (
        <UserSessions
          key={open.id}
          client={client}
          role={role}
          user={open}
          onChanged={reload}
          onDeleted={() => {
            setOpen(undefined)
            reload()
          }}
        />
      ) : null}
    </section>
  )
}

function UserSessions({
  client,
  role,
  user,
  onChanged,
  onDeleted,
}: SectionProps & { user: UserRow; onChanged: () => void; onDeleted: () => void }) {
  const { state, reload } = useConsole(client, 'GET /api/admin/users/:userId/sessions', {
    params: { userId: user.id },
  })
  const [message, setMessage] = useState<string>()
  const revoke = async (call: () => Promise<unknown>, done: string) => {
    const failed = await change(call)
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
              revoke(
                () =>
                  consoleCall(client, 'POST /api/admin/users/:userId/revoke-sessions', {
                    params: { userId: user.id },
                  }),
                'Every session of this user was revoked.',
              )
            }
          >
            Revoke all sessions
          </button>{' '}
          <DeleteUser
            client={client}
            userId={user.id}
            label={user.address ?? user.id}
            onDeleted={onDeleted}
          />
        </p>
      ) : null}
      <ConsoleTable
        state={state}
        rows={(data) => data.results}
        rowKey={(session) => session.id}
        caption="Sessions"
        captionHidden
        alert={false}
        columns={[
          {
            header: 'Device',
            className: 'user-agent',
            cell: (session) => session.userAgent ?? 'Unknown device',
          },
          { header: 'Chain', cell: (session) => session.chainId },
          { header: 'Signed in', cell: (session) => dateTime(session.createdAt) },
          { header: 'Last used', cell: (session) => dateTime(session.lastSeenAt) },
          { header: 'State', cell: (session) => stateOf(session) },
          {
            header: 'Actions',
            headerHidden: true,
            cell: (session) =>
              role === 'admin' && stateOf(session) === 'Active' ? (
                <button
                  type="button"
                  className="button-secondary"
                  onClick={() =>
                    revoke(
                      () =>
                        consoleCall(client, 'POST /api/admin/sessions/:sessionId/revoke', {
                          params: { sessionId: session.id },
                        }),
                      'The session was revoked.',
                    )
                  }
                >
                  Revoke
                </button>
              ) : null,
          },
        ]}
      />
    </section>
  )
}
