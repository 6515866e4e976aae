// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { AddRow } from './add-row.tsx'
import { Page, scriptedClient as scripted } from './console-test-kit.tsx'
import { CreateClass } from './create-class.tsx'
import { columnsOf } from './field-types.ts'

// The data browser's new class and new row forms against a scripted API: what they check
// before sending, what they send, and how a refusal is shown.

afterEach(cleanup)

const refusal = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status })

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } })

describe('the new class form', () => {
  it('creates a class with its first fields and hands its name on', async () => {
    const { client, sent } = scripted(() =>
      Response.json({ className: 'Planet', fields: {} }, { status: 201 }),
    )
    const created: string[] = []
    render(
      <Page>
        <CreateClass client={client} known={['Note']} onCreated={(name) => created.push(name)} />
      </Page>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Create class…' }))
    type('Class name', 'Planet')
    fireEvent.click(screen.getByRole('button', { name: 'Add a field' }))
    type('Field 1 name', 'title')
    fireEvent.click(screen.getByRole('button', { name: 'Add a field' }))
    type('Field 2 name', 'moon')
    type('Field 2 type', 'pointer')
    type('Field 2 target class', 'Planet')
    fireEvent.click(screen.getByRole('button', { name: 'Create class' }))
    await expect.poll(() => created).toEqual(['Planet'])
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/api/admin/classes',
        body: {
          name: 'Planet',
          fields: { title: { type: 'string' }, moon: { type: 'pointer', targetClass: 'Planet' } },
        },
      },
    ])
    // Closed again, ready for the next.
    expect(screen.getByRole('button', { name: 'Create class…' })).toBeTruthy()
  })

  it('refuses a bad or taken name and a pointer without its class before sending', async () => {
    const { client, sent } = scripted(() => Response.json({}))
    render(
      <Page>
        <CreateClass client={client} known={['Note']} onCreated={() => undefined} />
      </Page>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Create class…' }))
    const submit = screen.getByRole('button', { name: 'Create class' })
    type('Class name', '2fast')
    fireEvent.click(submit)
    expect(screen.getByRole('alert').textContent).toMatch(/starts with a letter/)
    type('Class name', 'Note')
    fireEvent.click(submit)
    expect(screen.getByRole('alert').textContent).toMatch(/Note exists already/)
    type('Class name', 'Star')
    fireEvent.click(screen.getByRole('button', { name: 'Add a field' }))
    type('Field 1 name', 'galaxy')
    type('Field 1 type', 'relation')
    fireEvent.click(submit)
    expect(screen.getByRole('alert').textContent).toMatch(/which class the relation galaxy/)
    expect(sent).toEqual([])
  })

  it("shows the server's refusal and stays open", async () => {
    const { client } = scripted(() =>
      refusal(409, 'class_exists', 'A class named Star exists already: pick another name.'),
    )
    render(
      <Page>
        <CreateClass client={client} known={[]} onCreated={() => undefined} />
      </Page>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Create class…' }))
    type('Class name', 'Star')
    fireEvent.click(screen.getByRole('button', { name: 'Create class' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/pick another name/)
    expect(screen.getByLabelText('Class name')).toBeTruthy()
  })
})

const columns = columnsOf([], {
  title: { type: 'string' },
  mass: { type: 'number' },
  inhabited: { type: 'boolean' },
  at: { type: 'geopoint' },
  tags: { type: 'array' },
  moon: { type: 'pointer', targetClass: 'Planet' },
  seen: { type: 'date' },
})

const made = {
  objectId: 'p1',
  className: 'Planet',
  owner: 'u1',
  publicRead: true,
  acl: { '*': { read: true } },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  data: {},
}

function renderAddRow(answer: () => unknown) {
  const { client, sent } = scripted(answer)
  const created: string[] = []
  render(
    <Page>
      <AddRow
        client={client}
        className="Planet"
        columns={columns}
        upload={() => Promise.reject(new Error('no uploads here'))}
        onCreated={(object) => created.push(object.objectId)}
      />
    </Page>,
  )
  fireEvent.click(screen.getByRole('button', { name: 'Add row…' }))
  return { sent, created }
}

describe('the new row form', () => {
  it("offers each field's own editor and sends the typed values with the ACL", async () => {
    const { sent, created } = renderAddRow(() => Response.json(made, { status: 201 }))
    // One editor per field, none for the object's own columns.
    expect(screen.queryByLabelText(/objectId/)).toBeNull()
    expect(screen.getByLabelText('inhabited (Boolean)').tagName).toBe('SELECT')
    expect(screen.getByLabelText('tags (Array)').tagName).toBe('TEXTAREA')
    expect(screen.getByLabelText('seen (Date)').getAttribute('type')).toBe('datetime-local')
    type('title (String)', 'Mars')
    type('mass (Number)', '0.107')
    type('inhabited (Boolean)', 'false')
    const at = within(screen.getByRole('group', { name: /^at/ }))
    fireEvent.change(at.getByLabelText('Latitude'), { target: { value: '4.5' } })
    fireEvent.change(at.getByLabelText('Longitude'), { target: { value: '137.4' } })
    type('tags (Array)', '["red"]')
    type('moon (Pointer)', 'p0')
    fireEvent.click(screen.getByRole('button', { name: 'Save row' }))
    await expect.poll(() => created).toEqual(['p1'])
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/api/admin/classes/Planet',
        body: {
          data: {
            title: 'Mars',
            mass: 0.107,
            inhabited: false,
            at: { __type: 'GeoPoint', latitude: 4.5, longitude: 137.4 },
            tags: ['red'],
            moon: { __type: 'Pointer', className: 'Planet', objectId: 'p0' },
          },
          // As a role made in the console: everyone reads it, only the console changes it.
          acl: { '*': { read: true } },
        },
      },
    ])
  })

  it('refuses a bad value before sending, marking its field', async () => {
    const { sent } = renderAddRow(() => Response.json(made, { status: 201 }))
    type('mass (Number)', 'heavy')
    fireEvent.click(screen.getByRole('button', { name: 'Save row' }))
    expect((await screen.findByRole('alert')).textContent).toBe('mass: "heavy" is not a number.')
    expect(screen.getByLabelText('mass (Number)').getAttribute('aria-invalid')).toBe('true')
    expect(sent).toEqual([])
  })

  it("shows the server's refusal and keeps what was typed", async () => {
    const { created } = renderAddRow(() =>
      refusal(400, 'invalid_reference', '"moon" points to Planet "nope", which does not exist.'),
    )
    type('moon (Pointer)', 'nope')
    fireEvent.click(screen.getByRole('button', { name: 'Save row' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/does not exist/)
    expect((screen.getByLabelText('moon (Pointer)') as HTMLInputElement).value).toBe('nope')
    expect(created).toEqual([])
  })
})
