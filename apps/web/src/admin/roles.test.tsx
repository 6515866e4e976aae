// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Page, scriptedClient as scripted } from './console-test-kit.tsx'
import { ObjectEditor } from './object-editor.tsx'
import { Roles } from './roles.tsx'

// The ACL editor and the Roles section against a scripted API: what they check before sending,
// and what they send.

afterEach(cleanup)

const MEMBER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const object = {
  objectId: 'o1',
  owner: 'u1',
  ownerAddress: MEMBER,
  publicRead: true,
  acl: { '*': { read: true }, u1: { read: true, write: true } },
  addresses: { u1: MEMBER },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  data: { title: 'hi' },
}

describe('the object editor', () => {
  it('shows the ACL with users by address, checks entries, and sends the ACL only when changed', async () => {
    const { client, sent } = scripted(() => object)
    let done = 0
    render(
      <Page>
        <ObjectEditor
          client={client}
          role="admin"
          className="Note"
          object={object}
          onDone={() => done++}
        />
      </Page>,
    )
    expect(screen.getByLabelText('Everyone may read it (public read)')).toHaveProperty(
      'checked',
      true,
    )
    expect(screen.getByLabelText('Entry 1: wallet address or user id')).toHaveProperty(
      'value',
      MEMBER,
    )
    // Saved as it was: no ACL is sent (the server keeps it).
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await expect.poll(() => done).toBe(1)
    expect(sent[0]).toMatchObject({ method: 'PUT', body: { data: { title: 'hi' } } })
    expect(sent[0]!.body).not.toHaveProperty('acl')

    fireEvent.click(screen.getByRole('button', { name: 'Add a role' }))
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(screen.getByRole('alert').textContent).toBe(
      'Entry 2: say which role, or remove the entry.',
    )
    fireEvent.change(screen.getByLabelText('Entry 2: role name'), { target: { value: 'Staff' } })
    fireEvent.click(screen.getByLabelText('Entry 2: write'))
    fireEvent.click(screen.getByLabelText('Everyone may read it (public read)'))
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await expect.poll(() => done).toBe(2)
    expect(sent[1]!.body).toEqual({
      data: { title: 'hi' },
      acl: { [MEMBER]: { read: true, write: true }, 'role:Staff': { read: true, write: true } },
    })
  })

  it('says when nobody but the console may change it', () => {
    const { client } = scripted(() => object)
    render(
      <Page>
        <ObjectEditor
          client={client}
          role="admin"
          className="Note"
          object={{ ...object, acl: { '*': { read: true } } }}
          onDone={() => {}}
        />
      </Page>,
    )
    expect(screen.getByText(/Nobody may change it but the console/)).toBeTruthy()
  })
})

const roleRow = {
  objectId: 'r1',
  name: 'Staff',
  owner: 'u9',
  acl: { '*': { read: true } },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  userCount: 1,
  roleCount: 0,
}

describe('the Roles section', () => {
  it('lists roles, opens one with its members by address, and adds and removes members', async () => {
    const { client, sent } = scripted((method, url) =>
      url.pathname === '/api/admin/roles'
        ? { results: [roleRow], count: 1 }
        : {
            ...roleRow,
            users: [{ id: 'u1', address: MEMBER }],
            roles: [],
            parentRoles: [{ objectId: 'r2', name: 'Everyone Inside' }],
          },
    )
    render(
      <Page>
        <Roles client={client} role="admin" />
      </Page>,
    )
    const table = await screen.findByRole('table', { name: 'Roles' })
    expect(await within(table).findByRole('rowheader', { name: 'Staff' })).toBeTruthy()
    expect(within(table).getByText('Only the console')).toBeTruthy()
    fireEvent.click(within(table).getByRole('button', { name: 'Open role Staff' }))
    const users = await screen.findByRole('table', { name: 'Users in Staff' })
    expect(await within(users).findByText(MEMBER)).toBeTruthy()
    expect(screen.getByText('Its members are also members of: Everyone Inside.')).toBeTruthy()

    fireEvent.change(screen.getByLabelText('Add a user (wallet address or id)'), {
      target: { value: '0x1234' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Add user' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/not a wallet address/)
    const before = sent.length
    fireEvent.change(screen.getByLabelText('Add a user (wallet address or id)'), {
      target: { value: MEMBER },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Add user' }))
    expect((await screen.findByRole('status')).textContent).toBe(`${MEMBER} was added.`)
    expect(sent[before]).toEqual({
      method: 'PUT',
      path: '/api/admin/roles/Staff',
      body: { add: { users: [MEMBER] } },
    })
    fireEvent.click(screen.getByRole('button', { name: `Remove ${MEMBER} from Staff` }))
    await expect
      .poll(() => sent.find((s) => (s.body as { remove?: unknown } | undefined)?.remove)?.body)
      .toEqual({ remove: { users: ['u1'] } })
  })

  it('checks a new role before creating it, and sends its members', async () => {
    const { client, sent } = scripted((method, url) =>
      method === 'POST'
        ? new Response(JSON.stringify({ ...roleRow, users: [], roles: [], parentRoles: [] }), {
            status: 201,
            headers: { 'content-type': 'application/json' },
          })
        : url.pathname === '/api/admin/roles'
          ? { results: [], count: 0 }
          : { ...roleRow, name: 'Night Staff', users: [], roles: [], parentRoles: [] },
    )
    render(
      <Page>
        <Roles client={client} role="admin" />
      </Page>,
    )
    expect(await screen.findByText('No roles yet.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('New role name'), { target: { value: 'bad/name' } })
    fireEvent.submit(screen.getByRole('form', { name: 'New role' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/A role name has letters/)
    fireEvent.change(screen.getByLabelText('New role name'), { target: { value: 'Night Staff' } })
    fireEvent.change(screen.getByLabelText('Users (wallet addresses or ids, one per line)'), {
      target: { value: `${MEMBER}\nu2, u3` },
    })
    fireEvent.change(screen.getByLabelText('Roles it contains (names, comma-separated)'), {
      target: { value: 'Staff' },
    })
    fireEvent.submit(screen.getByRole('form', { name: 'New role' }))
    await expect
      .poll(() => sent.find((s) => s.method === 'POST')?.body)
      .toEqual({
        name: 'Night Staff',
        users: [MEMBER, 'u2', 'u3'],
        roles: ['Staff'],
      })
    expect(await screen.findByText('The role Night Staff was created.')).toBeTruthy()
  })

  it('shows a viewer the roles without a way to change them', async () => {
    const { client } = scripted(() => ({ results: [roleRow], count: 1 }))
    render(
      <Page>
        <Roles client={client} role="viewer" />
      </Page>,
    )
    expect(await screen.findByRole('rowheader', { name: 'Staff' })).toBeTruthy()
    expect(screen.queryByRole('form', { name: 'New role' })).toBeNull()
  })
})
