import { createBackendClient } from '@portico/sdk/backend'
import { describe, expect, it } from 'vitest'
import {
  fileUrl,
  loadProfile,
  loadPublicProfile,
  saveProfile,
  uploadAvatar,
} from './profile-store.ts'

/** A real SDK client whose server answers from `answer` (and records what was sent). */
function recordingClient(answer: (method: string, url: URL, body: unknown) => unknown) {
  const calls: { method: string; url: URL; body: unknown }[] = []
  const client = createBackendClient({
    serverUrl: 'http://app.test',
    appId: 'test',
    fetch: async (url, init) => {
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body
      const call = { method: init.method!, url: new URL(url), body }
      calls.push(call)
      return Response.json(answer(call.method, call.url, body), {
        status: init.method === 'POST' ? 201 : 200,
      })
    },
  })
  return { client, calls }
}

const wire = (objectId: string, data: unknown) => ({
  objectId,
  className: 'Profile',
  owner: 'user-1',
  publicRead: false,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
  data,
})

const profile = {
  displayName: '  Ada  ',
  avatar: { name: 'x_avatar.png', url: 'http://app.test/api/files/x_avatar.png' },
  birthday: '1990-05-17',
  public: false,
}

describe('loadProfile', () => {
  it('finds the profile by owner, newest first, and decodes the file and the date', async () => {
    const { client, calls } = recordingClient(() => ({
      results: [
        wire('p1', {
          displayName: 'Ada',
          avatar: { __type: 'File', name: 'x_avatar.png', url: '/api/files/x_avatar.png' },
          birthday: { __type: 'Date', iso: '1990-05-17T00:00:00.000Z' },
          public: true,
        }),
      ],
    }))
    expect(await loadProfile(client, 'user-1')).toEqual({
      objectId: 'p1',
      displayName: 'Ada',
      avatar: { name: 'x_avatar.png', url: '/api/files/x_avatar.png' },
      birthday: '1990-05-17',
      public: true,
    })
    const url = calls[0]!.url
    expect(url.pathname).toBe('/api/classes/Profile')
    expect(JSON.parse(url.searchParams.get('where')!)).toEqual({ owner: 'user-1' })
    expect(url.searchParams.get('order')).toBe('-updatedAt')
    expect(url.searchParams.get('limit')).toBe('1')
  })

  it('answers null when there is none yet, and tolerates fields of the wrong kind', async () => {
    expect(await loadProfile(recordingClient(() => ({ results: [] })).client, 'u')).toBeNull()
    const odd = recordingClient(() => ({
      results: [wire('p2', { displayName: 5, avatar: 'x', birthday: 'soon', public: 'yes' })],
    }))
    expect(await loadProfile(odd.client, 'u')).toEqual({
      objectId: 'p2',
      displayName: '',
      avatar: null,
      birthday: '',
      public: false,
    })
  })
})

describe('saveProfile', () => {
  it('creates the first time and updates afterwards, with the wire forms', async () => {
    const { client, calls } = recordingClient((_method, _url, body) =>
      wire('p9', (body as { data: unknown }).data),
    )
    const created = await saveProfile(client, profile)
    expect(created).toEqual({ ...profile, displayName: 'Ada', objectId: 'p9' })
    await saveProfile(client, {
      ...created,
      displayName: 'Grace',
      avatar: null,
      birthday: '',
      public: true,
    })
    expect(calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual([
      'POST /api/classes/Profile',
      'PUT /api/classes/Profile/p9',
    ])
    expect(calls[0]!.body).toEqual({
      data: {
        displayName: 'Ada',
        avatar: { __type: 'File', name: 'x_avatar.png', url: profile.avatar.url },
        birthday: { __type: 'Date', iso: '1990-05-17T00:00:00.000Z' },
        public: false,
      },
    })
    expect(calls[1]!.body).toEqual({
      data: { displayName: 'Grace', avatar: null, birthday: null, public: true },
    })
  })
})

describe('loadPublicProfile', () => {
  it("asks the server for a wallet's public profile", async () => {
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const { client, calls } = recordingClient(() => ({ address, displayName: 'Ada' }))
    expect(await loadPublicProfile(client, address)).toEqual({ address, displayName: 'Ada' })
    expect(`${calls[0]!.method} ${calls[0]!.url.pathname}`).toBe(`GET /api/profiles/${address}`)
  })
})

describe('uploadAvatar', () => {
  it('uploads under a safe name with the image type', async () => {
    const { client, calls } = recordingClient(() => ({
      name: 'k_avatar.webp',
      url: '/api/files/k_avatar.webp',
    }))
    const file = new Blob([new Uint8Array(3)], { type: 'image/webp' })
    await expect(uploadAvatar(client, file)).resolves.toEqual({
      name: 'k_avatar.webp',
      url: 'http://app.test/api/files/k_avatar.webp',
    })
    expect(calls[0]!.url.pathname).toBe('/api/files/avatar.webp')
    expect(calls[0]!.body).toBe(file)
  })
})

describe('fileUrl', () => {
  it('keeps absolute URLs and resolves server paths', () => {
    const client = { url: (path: string) => `http://app.test${path}` }
    expect(fileUrl(client, { name: 'a', url: 'http://cdn.test/a' })).toBe('http://cdn.test/a')
    expect(fileUrl(client, { name: 'a', url: '/api/files/a' })).toBe('http://app.test/api/files/a')
  })
})
