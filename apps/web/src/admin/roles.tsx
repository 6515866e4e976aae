import { useState, type FormEvent } from 'react'
import { AclEditor } from './acl-editor.tsx'
import { aclOfDraft, draftOf, writersOf } from './acl-form.ts'
import type { SectionProps } from './section.ts'
import { ConsoleTable } from './console-table.tsx'
import { change, dateTime } from './use-admin.ts'
import { consoleCall, useConsole } from './console-api.ts'
import type { ConsoleBody } from '@portico/sdk/wire'

const PAGE = 20
const ROLE_NAME = /^[0-9a-zA-Z_\- ]{1,128}$/
const USER = /^(0x[0-9a-fA-F]{40}|[A-Za-z0-9_-]{1,80})$/

/** Entries of a list typed as text: one per line or comma, blanks dropped. */
const entriesOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter(Boolean)

/** What is wrong with users and roles named in a form, if anything. */
function membersProblem(users: string[], roles: string[]): string | undefined {
  const user = users.find(
    (entry) => !USER.test(entry) || (/^0x/i.test(entry) && entry.length !== 42),
  )
  if (user !== undefined)
    return `"${user}" is not a wallet address (0x and 40 hex digits) or a user id.`
  const role = roles.find((entry) => !ROLE_NAME.test(entry))
  if (role !== undefined)
    return `"${role}" is not a role name: letters, digits, spaces, "_" and "-" (at most 128).`
  return undefined
}

/**
 * Roles: named groups of users that ACLs name as `role:<name>`. A role's members are its users
 * and the members of the roles it contains. The console changes every role, whatever its ACL.
 */
export function Roles({ client, role }: SectionProps) {
  const [skip, setSkip] = useState(0)
  const list = useConsole(client, 'GET /api/admin/roles', {
    query: { limit: String(PAGE), skip: String(skip) },
  })
  const [open, setOpen] = useState<string>()
  const [name, setName] = useState('')
  const [users, setUsers] = useState('')
  const [roles, setRoles] = useState('')
  const [message, setMessage] = useState<{ text: string; failed: boolean }>()

  const create = async (event: FormEvent) => {
    event.preventDefault()
    const members = { users: entriesOf(users), roles: entriesOf(roles) }
    const problem = !ROLE_NAME.test(name.trim())
      ? 'A role name has letters, digits, spaces, "_" and "-" (at most 128).'
      : membersProblem(members.users, members.roles)
    if (problem) return setMessage({ text: problem, failed: true })
    const failed = await change(() =>
      consoleCall(client, 'POST /api/admin/roles', { body: { name: name.trim(), ...members } }),
    )
    if (failed) return setMessage({ text: failed, failed: true })
    setMessage({ text: `The role ${name.trim()} was created.`, failed: false })
    setOpen(name.trim())
    setName('')
    setUsers('')
    setRoles('')
    list.reload()
  }

  return (
    <section aria-labelledby="roles-heading">
      <h2 id="roles-heading">Roles</h2>
      <p>
        An object&apos;s ACL can name a role (<code>role:Name</code>): every member of the role then
        gets that access, and so do the members of the roles it contains.
      </p>
      {role === 'admin' ? (
        <form className="console-filters role-form" onSubmit={create} aria-label="New role">
          <label>
            New role name
            <input
              value={name}
              maxLength={128}
              required
              onChange={(e) => setName(e.target.value)}
            />
          </label>
          <label>
            Users (wallet addresses or ids, one per line)
            <textarea rows={2} value={users} onChange={(e) => setUsers(e.target.value)} />
          </label>
          <label>
            Roles it contains (names, comma-separated)
            <input value={roles} onChange={(e) => setRoles(e.target.value)} />
          </label>
          <button type="submit">Create role</button>
        </form>
      ) : null}
      {message?.failed ? (
        <p role="alert" className="console-problem">
          {message.text}
        </p>
      ) : message ? (
        <p role="status">{message.text}</p>
      ) : null}
      <ConsoleTable
        state={list.state}
        rows={(data) => data.results}
        rowKey={(row) => row.objectId}
        caption="Roles"
        empty="No roles yet."
        toolbar={(data) => (
          <p className="console-toolbar">
            {data.count} role{data.count === 1 ? '' : 's'}
          </p>
        )}
        columns={[
          { header: 'Name', rowHeader: true, cell: (row) => row.name },
          { header: 'Users', numeric: true, cell: (row) => row.userCount },
          { header: 'Roles in it', numeric: true, cell: (row) => row.roleCount },
          { header: 'Changed by', className: 'address', cell: (row) => writersOf(row.acl) },
          { header: 'Updated', cell: (row) => dateTime(row.updatedAt) },
          {
            header: 'Actions',
            headerHidden: true,
            cell: (row) => (
              <button
                type="button"
                className="button-secondary"
                aria-label={`Open role ${row.name}`}
                onClick={() => setOpen(row.name)}
              >
                Open
              </button>
            ),
          },
        ]}
        pager={(data) => ({ skip, size: PAGE, count: data.count, onSkip: setSkip })}
      />
      {open ? (
        <RoleView
          key={open}
          client={client}
          role={role}
          name={open}
          onChanged={list.reload}
          onClose={() => setOpen(undefined)}
        />
      ) : null}
    </section>
  )
}

/** One role: its users, the roles in it, the roles it is in, its ACL; each change saved at once. */
function RoleView({
  client,
  role,
  name,
  onChanged,
  onClose,
}: SectionProps & { name: string; onChanged: () => void; onClose: () => void }) {
  const detail = useConsole(client, 'GET /api/admin/roles/:name', { params: { name } })
  const [message, setMessage] = useState<{ text: string; failed: boolean }>()
  const fail = (text: string) => setMessage({ text, failed: true })
  const [newUser, setNewUser] = useState('')
  const [newRole, setNewRole] = useState('')
  const [access, setAccess] = useState<ReturnType<typeof draftOf>>()
  const [confirming, setConfirming] = useState(false)
  const admin = role === 'admin'
  const shown = detail.state.status === 'ready' ? detail.state.data : undefined
  const addresses = Object.fromEntries(
    (shown?.users ?? []).flatMap((user) => (user.address ? [[user.id, user.address]] : [])),
  )
  const draft = access ?? (shown ? draftOf(shown.acl, addresses) : undefined)

  const update = async (body: ConsoleBody<'PUT /api/admin/roles/:name'>, done: string) => {
    const failed = await change(() =>
      consoleCall(client, 'PUT /api/admin/roles/:name', { params: { name }, body }),
    )
    setMessage({ text: failed ?? done, failed: failed !== undefined })
    if (failed) return false
    detail.reload()
    onChanged()
    return true
  }
  const addUser = async (event: FormEvent) => {
    event.preventDefault()
    const problem = membersProblem([newUser.trim()], [])
    if (problem) return fail(problem)
    if (await update({ add: { users: [newUser.trim()] } }, `${newUser.trim()} was added.`))
      setNewUser('')
  }
  const addRole = async (event: FormEvent) => {
    event.preventDefault()
    const problem = membersProblem([], [newRole.trim()])
    if (problem) return fail(problem)
    if (await update({ add: { roles: [newRole.trim()] } }, `${newRole.trim()} was added.`))
      setNewRole('')
  }
  const saveAccess = async () => {
    if (!draft) return
    const acl = aclOfDraft(draft)
    if ('problem' in acl) return fail(acl.problem)
    if (await update({ acl: acl.acl }, "The role's access was saved.")) setAccess(undefined)
  }
  const remove = async () => {
    const failed = await change(() =>
      consoleCall(client, 'DELETE /api/admin/roles/:name', { params: { name } }),
    )
    setConfirming(false)
    if (failed) return fail(failed)
    onChanged()
    onClose()
  }

  return (
    <section className="card role-view" aria-labelledby="role-heading">
      <h3 id="role-heading">
        Role <span className="mono">{name}</span>
      </h3>
      {detail.state.status === 'error' ? <p role="alert">{detail.state.message}</p> : null}
      {message?.failed ? (
        <p role="alert" className="console-problem">
          {message.text}
        </p>
      ) : message ? (
        <p role="status">{message.text}</p>
      ) : null}
      {shown ? (
        <>
          <p className="muted">
            Created {dateTime(shown.createdAt)} · {shown.userCount} user
            {shown.userCount === 1 ? '' : 's'} · {shown.roleCount} role
            {shown.roleCount === 1 ? '' : 's'} in it
          </p>
          <p>
            {shown.parentRoles.length
              ? `Its members are also members of: ${shown.parentRoles.map((r) => r.name).join(', ')}.`
              : 'No other role contains it.'}
          </p>
          <ConsoleTable
            state={detail.state}
            rows={(data) => data.users}
            rowKey={(user) => user.id}
            caption={`Users in ${name}`}
            empty="No users in it directly."
            columns={[
              {
                header: 'Wallet',
                className: 'address',
                rowHeader: true,
                cell: (user) => user.address ?? '(no such user)',
              },
              { header: 'User id', className: 'mono', cell: (user) => user.id },
              {
                header: 'Actions',
                headerHidden: true,
                cell: (user) =>
                  admin ? (
                    <button
                      type="button"
                      className="button-secondary"
                      aria-label={`Remove ${user.address ?? user.id} from ${name}`}
                      onClick={() =>
                        update(
                          { remove: { users: [user.id] } },
                          `${user.address ?? user.id} was removed.`,
                        )
                      }
                    >
                      Remove
                    </button>
                  ) : null,
              },
            ]}
          />
          {admin ? (
            <form className="console-filters" onSubmit={addUser} aria-label="Add a user">
              <label>
                Add a user (wallet address or id)
                <input
                  className="mono"
                  value={newUser}
                  placeholder="0x…"
                  onChange={(e) => setNewUser(e.target.value)}
                />
              </label>
              <button type="submit">Add user</button>
            </form>
          ) : null}
          <ConsoleTable
            state={detail.state}
            rows={(data) => data.roles}
            rowKey={(child) => child.objectId}
            caption={`Roles in ${name} (their members are members of it)`}
            empty="No roles in it."
            columns={[
              { header: 'Role', rowHeader: true, cell: (child) => child.name },
              {
                header: 'Actions',
                headerHidden: true,
                cell: (child) =>
                  admin ? (
                    <button
                      type="button"
                      className="button-secondary"
                      aria-label={`Remove role ${child.name} from ${name}`}
                      onClick={() =>
                        update(
                          { remove: { roles: [child.objectId] } },
                          `${child.name} was removed.`,
                        )
                      }
                    >
                      Remove
                    </button>
                  ) : null,
              },
            ]}
          />
          {admin ? (
            <form className="console-filters" onSubmit={addRole} aria-label="Add a role">
              <label>
                Add a role to it (name)
                <input value={newRole} onChange={(e) => setNewRole(e.target.value)} />
              </label>
              <button type="submit">Add role</button>
            </form>
          ) : null}
          {draft ? (
            <AclEditor
              legend="Who may read and change this role outside the console"
              draft={draft}
              readOnly={!admin}
              onChange={(next) => {
                setAccess(next)
                setMessage(undefined)
              }}
            />
          ) : null}
        </>
      ) : null}
      <p className="console-toolbar">
        {admin && shown ? (
          <button type="button" onClick={saveAccess} disabled={access === undefined}>
            Save access
          </button>
        ) : null}
        {admin && shown ? (
          confirming ? (
            <span role="group" aria-label="Confirm deletion" className="confirm">
              <strong>Delete this role for good?</strong>
              <button type="button" className="danger" onClick={remove}>
                Yes, delete
              </button>
              <button
                type="button"
                className="button-secondary"
                onClick={() => setConfirming(false)}
              >
                Keep it
              </button>
            </span>
          ) : (
            <button type="button" className="button-secondary" onClick={() => setConfirming(true)}>
              Delete role…
            </button>
          )
        ) : null}
        <button type="button" className="button-secondary" onClick={onClose}>
          Close
        </button>
      </p>
    </section>
  )
}
