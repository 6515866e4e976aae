// @vitest-environment happy-dom
import { PorticoProvider } from '@portico/react'
import { createBackendClient } from '@portico/sdk/backend'
import { createPortico } from '@portico/sdk/portico'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { UploadFile } from './avatar-field.tsx'
import { ProfileForm } from './profile-form.tsx'

afterEach(cleanup)
beforeAll(() => {
  URL.createObjectURL ??= () => 'blob:preview'
  URL.revokeObjectURL ??= () => undefined
})

const today = () => new Date(2026, 10, 21, 12)

/** A real SDK client over a scripted server: `answers` are taken in order. */
function server(answers: (() => Response)[]) {
  const requests: { method: string; path: string; body: unknown }[] = []
  const client = createBackendClient({
    serverUrl: 'http://app.test',
    appId: 'test',
    attempts: 1,
    fetch: async (url, init) => {
      requests.push({
        method: init.method!,
        path: new URL(url).pathname,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      })
      return answers.shift()!()
    },
  })
  return { client, requests }
}

const noProfile = () => Response.json({ results: [] })
const stored = (data: object) => () => Response.json({ objectId: 'p1', data }, { status: 201 })
const noUpload: UploadFile = async () => {
  throw new Error('not expected')
}

// The form tells the header's copy of the profile when it saved (through the app's query client).
const portico = createPortico({ serverUrl: 'http://app.test', appId: 'test', chains: [] })

function renderForm(client: ReturnType<typeof server>['client'], upload = noUpload) {
  return render(
    <PorticoProvider portico={portico}>
      <ProfileForm
        client={client}
        ownerId="u1"
        address="0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
        upload={upload}
        today={today}
      />
    </PorticoProvider>,
  )
}

describe('ProfileForm', () => {
  it('shows the stored profile', async () => {
    const { client } = server([
      () =>
        Response.json({
          results: [
            {
              objectId: 'p1',
              data: {
                displayName: 'Ada',
                avatar: { __type: 'File', name: 'k_avatar.png', url: '/api/files/k_avatar.png' },
                birthday: { __type: 'Date', iso: '1990-05-17T00:00:00.000Z' },
              },
            },
          ],
        }),
    ])
    renderForm(client)
    expect(((await screen.findByLabelText('Display name')) as HTMLInputElement).value).toBe('Ada')
    expect((screen.getByLabelText('Birthday') as HTMLInputElement).value).toBe('1990-05-17')
    expect(screen.getByRole('img', { name: 'Your avatar' }).getAttribute('src')).toBe(
      'http://app.test/api/files/k_avatar.png',
    )
  })

  it('refuses a future birthday next to the field and sends nothing', async () => {
    const { client, requests } = server([noProfile])
    renderForm(client)
    const birthday = (await screen.findByLabelText('Birthday')) as HTMLInputElement
    fireEvent.change(birthday, { target: { value: '2030-01-01' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(await screen.findByText('A birthday cannot be in the future.')).toBeTruthy()
    expect(birthday.getAttribute('aria-invalid')).toBe('true')
    expect(birthday.getAttribute('aria-describedby')).toMatch(/birthday-error/)
    expect(requests).toHaveLength(1) // only the load
    // Fixing the value clears the message at once.
    fireEvent.change(birthday, { target: { value: '2001-01-01' } })
    expect(screen.queryByText('A birthday cannot be in the future.')).toBeNull()
    expect(birthday.hasAttribute('aria-invalid')).toBe(false)
  })

  it('keeps everything typed when a save fails, and saves on retry', async () => {
    const { client, requests } = server([
      noProfile,
      () =>
        Response.json({ error: { code: 'unavailable', message: 'Server busy' } }, { status: 503 }),
      stored({
        displayName: 'Grace',
        birthday: { __type: 'Date', iso: '1985-12-09T00:00:00.000Z' },
      }),
    ])
    renderForm(client)
    fireEvent.change(await screen.findByLabelText('Display name'), { target: { value: 'Grace' } })
    fireEvent.change(screen.getByLabelText('Birthday'), { target: { value: '1985-12-09' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    expect((await screen.findByRole('alert')).textContent).toContain('Server busy')
    expect((screen.getByLabelText('Display name') as HTMLInputElement).value).toBe('Grace')
    expect((screen.getByLabelText('Birthday') as HTMLInputElement).value).toBe('1985-12-09')
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(await screen.findByText('Profile saved.')).toBeTruthy()
    expect(requests.map((r) => r.method)).toEqual(['GET', 'POST', 'POST'])
    expect(requests[2]!.body).toEqual({
      data: {
        displayName: 'Grace',
        avatar: null,
        birthday: { __type: 'Date', iso: '1985-12-09T00:00:00.000Z' },
        public: false,
      },
    })
  })

  it('makes the name and avatar public when the user ticks the box, and private again', async () => {
    const { client, requests } = server([
      () =>
        Response.json({
          results: [{ objectId: 'p1', data: { displayName: 'Ada', public: false } }],
        }),
      stored({ displayName: 'Ada', public: true }),
      stored({ displayName: 'Ada', public: false }),
    ])
    renderForm(client)
    const box = (await screen.findByLabelText(
      'Show my name and avatar on my public page',
    )) as HTMLInputElement
    expect(box.checked).toBe(false)
    // The hint links to the page it talks about.
    expect(screen.getByRole('link', { name: 'your public page' }).getAttribute('href')).toBe(
      '/u/0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    )
    fireEvent.click(box)
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(await screen.findByText('Profile saved.')).toBeTruthy()
    expect((requests[1]!.body as { data: { public: boolean } }).data.public).toBe(true)
    fireEvent.click(box)
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    await waitFor(() => expect(requests).toHaveLength(3))
    expect((requests[2]!.body as { data: { public: boolean } }).data.public).toBe(false)
  })

  it('refuses an over-limit or non-image avatar before uploading', async () => {
    const { client } = server([noProfile])
    let uploads = 0
    renderForm(client, async () => {
      uploads++
      return { name: 'x', url: '/x' }
    })
    const picker = (await screen.findByLabelText(/Choose an image/)) as HTMLInputElement
    const big = new File([new Uint8Array(3 * 1024 * 1024)], 'big.png', { type: 'image/png' })
    fireEvent.change(picker, { target: { files: [big] } })
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The image is 3.0 MB; the limit is 2.0 MB.',
    )
    const svg = new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' })
    fireEvent.change(picker, { target: { files: [svg] } })
    expect((await screen.findByRole('alert')).textContent).toContain('PNG, JPEG')
    expect(uploads).toBe(0)
  })

  it('shows upload progress, then the uploaded image, and saves it with the profile', async () => {
    const { client, requests } = server([noProfile, stored({})])
    let progress!: (fraction: number) => void
    let finish!: () => void
    const upload: UploadFile = (_file, onProgress) => {
      progress = onProgress
      return new Promise((resolve) => {
        finish = () => resolve({ name: 'k_avatar.png', url: '/api/files/k_avatar.png' })
      })
    }
    renderForm(client, upload)
    const picker = (await screen.findByLabelText(/Choose an image/)) as HTMLInputElement
    const image = new File([new Uint8Array(10)], 'me.png', { type: 'image/png' })
    fireEvent.change(picker, { target: { files: [image] } })
    act(() => progress(0.4))
    const bar = (await screen.findByRole('progressbar')) as HTMLProgressElement
    expect(bar.getAttribute('value')).toBe('40')
    expect(screen.getByRole('button', { name: 'Save profile' }).hasAttribute('disabled')).toBe(true)
    await act(async () => finish())
    expect(screen.queryByRole('progressbar')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(await screen.findByText('Profile saved.')).toBeTruthy()
    expect(requests[1]!.body).toMatchObject({
      data: { avatar: { __type: 'File', name: 'k_avatar.png', url: '/api/files/k_avatar.png' } },
    })
  })
})
