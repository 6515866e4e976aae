import { createBackendClient } from '@portico/sdk/backend/client'
import { describe, expect, it } from 'vitest'
import { fromWire, loadProfile, saveProfile, toDocument, uploadAvatar } from './profile-store.ts'

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

const profile = {
  displayName: '  Ada  ',
  avatar: { name: 'x_avatar.png', url: '/api/files/x_avatar.png' },
  birthday: '1990-05-17',
}

describe('profile documents', () => {
  it('encode the avatar as a File and the birthday as a Date at midnight UTC', () => {
    expect(toDocument(profile)).toEqual({
      displayName: 'Ada',
      avatar: { __type: 'File', name: 'x_avatar.png', url: '/api/files/x_avatar.png' },
      birthday: { __type: 'Date', iso: '1990-05-17T00:00:00.000Z' },
    })
    expect(toDocument({ displayName: '', avatar: null, birthday: '' })).toEqual({
      displayName: '',
      avatar: null,
      birthday: null,
    })
  })

  it('read back what they wrote, and tolerate junk', () => {
    const data = toDocument(profile)
    expect(fromWire({ objectId: 'p1', data })).toEqual({
      ...profile,
      displayName: 'Ada',
      objectId: 'p1',
    })
    expect(
      fromWire({ objectId: 'p2', data: { displayName: 5, avatar: 'x', birthday: { iso: 3 } } }),
    ).toEqual({
      objectId: 'p2',
      displayName: '',
      avatar: null,
      birthday: '',
    })
  })
})

describe('loadProfile / saveProfile', () => {
  it('finds the profile by owner, newest first', async () => {
    const { client, calls } = recordingClient(() => ({
      results: [{ objectId: 'p1', data: toDocument(profile) }],
    }))
    expect((await loadProfile(client, 'user-1'))?.objectId).toBe('p1')
    const url = calls[0]!.url
    expect(url.pathname).toBe('/api/classes/Profile')
    expect(JSON.parse(url.searchParams.get('where')!)).toEqual({ owner: 'user-1' })
    expect(url.searchParams.get('limit')).toBe('1')
  })

  it('answers null when there is none yet', async () => {
    const { client } = recordingClient(() => ({ results: [] }))
    expect(await loadProfile(client, 'user-1')).toBeNull()
  })

  it('creates the first time and updates afterwards', async () => {
    const { client, calls } = recordingClient((_method, _url, body) => ({
      objectId: 'p9',
      data: (body as { data: unknown }).data,
    }))
    const created = await saveProfile(client, profile)
    expect(created.objectId).toBe('p9')
    await saveProfile(client, { ...created, displayName: 'Grace' })
    expect(calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual([
      'POST /api/classes/Profile',
      'PUT /api/classes/Profile/p9',
    ])
    expect(calls[1]!.body).toMatchObject({ data: { displayName: 'Grace' } })
  })

  it('uploads an avatar under a safe name with its type', async () => {
    const { client, calls } = recordingClient(() => ({
      name: 'k_avatar.webp',
      url: '/api/files/k_avatar.webp',
    }))
    const file = new Blob([new Uint8Array(3)], { type: 'image/webp' })
    await expect(uploadAvatar(client, file)).resolves.toEqual({
      name: 'k_avatar.webp',
      url: '/api/files/k_avatar.webp',
    })
    expect(calls[0]!.url.pathname).toBe('/api/files/avatar.webp')
    expect(calls[0]!.body).toBe(file)
  })
})
