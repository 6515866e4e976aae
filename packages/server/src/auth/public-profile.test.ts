import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'
import { linkAddress } from './addresses.ts'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

const randomAddress = () => getAddress(`0x${randomBytes(20).toString('hex')}`)

describe.each(databaseKinds())('public profiles on %s', (kind) => {
  let app: FastifyInstance
  let owner: Awaited<ReturnType<typeof signedIn>>
  let stranger: Awaited<ReturnType<typeof signedIn>>
  let profileId: string
  let avatar: { __type: 'File'; name: string; url: string }

  /** The profile as the web app's form writes it (its own object, private: no ACL given). */
  const saveProfile = async (fields: Record<string, unknown>) => {
    const data = {
      displayName: 'Ada Lovelace',
      avatar,
      birthday: { __type: 'Date', iso: '1990-05-17T00:00:00.000Z' },
      ...fields,
    }
    const res = profileId
      ? await app.inject({
          method: 'PUT',
          url: `/api/classes/Profile/${profileId}`,
          headers: owner.headers,
          payload: { data },
        })
      : await app.inject({
          method: 'POST',
          url: '/api/classes/Profile',
          headers: owner.headers,
          payload: { data },
        })
    expect(res.statusCode).toBeLessThan(300)
    profileId ??= res.json().objectId
  }
  const look = (address: string, headers: Record<string, string> = {}) =>
    app.inject({ url: `/api/profiles/${address}`, headers })

  beforeAll(async () => {
    ;({ app } = await testApp(kind))
    owner = await signedIn(app)
    stranger = await signedIn(app)
    const uploaded = await app.inject({
      method: 'POST',
      url: '/api/files/avatar.png',
      headers: { ...owner.headers, 'content-type': 'image/png' },
      payload: PNG,
    })
    const { name, url } = uploaded.json()
    avatar = { __type: 'File', name, url }
  })

  it('answers the address alone while the profile is not public, to visitors and strangers', async () => {
    await saveProfile({})
    for (const headers of [{}, stranger.headers, owner.headers]) {
      const res = await look(owner.user.address, headers)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ address: owner.user.address })
    }
    // Nor does the objects API give it away: the profile is its owner's alone.
    for (const headers of [{}, stranger.headers]) {
      const listed = await app.inject({ url: '/api/classes/Profile', headers })
      expect(listed.json().results).toEqual([])
      const one = await app.inject({ url: `/api/classes/Profile/${profileId}`, headers })
      expect(one.statusCode).toBe(404)
    }
  })

  it('answers the display name and the avatar once made public, never the birthday', async () => {
    await saveProfile({ public: true })
    for (const headers of [{}, stranger.headers]) {
      const res = await look(owner.user.address.toLowerCase(), headers)
      expect(res.headers['cache-control']).toBe('no-cache')
      expect(res.json()).toEqual({
        address: owner.user.address,
        displayName: 'Ada Lovelace',
        avatarUrl: `/api/files/${avatar.name}`,
      })
      expect(res.body).not.toContain('1990')
    }
    // A visitor's browser loads the picture.
    const image = await app.inject({ url: `/api/files/${avatar.name}` })
    expect(image.statusCode).toBe(200)
    expect(image.headers['content-type']).toBe('image/png')
    // The profile object itself stays private.
    const listed = await app.inject({ url: '/api/classes/Profile', headers: stranger.headers })
    expect(listed.json().results).toEqual([])
  })

  it('answers the address alone again once made private', async () => {
    await saveProfile({ public: false })
    expect((await look(owner.user.address)).json()).toEqual({ address: owner.user.address })
    await saveProfile({ public: true })
    expect((await look(owner.user.address)).json().displayName).toBe('Ada Lovelace')
  })

  it("shows a public profile on the primary address only, not on the user's other wallets", async () => {
    await saveProfile({ public: true })
    const other = randomAddress()
    await linkAddress(app.services.database.db, owner.user.id, other)
    expect((await look(other)).json()).toEqual({ address: other })
  })

  it('links only to files of this server, and leaves out a name it would not show', async () => {
    await saveProfile({
      public: true,
      displayName: 'bad\u0007name',
      avatar: { __type: 'File', name: 'x.png', url: 'https://tracker.example/x.png' },
    })
    expect((await look(owner.user.address)).json()).toEqual({ address: owner.user.address })
    await saveProfile({ public: true, displayName: 'x'.repeat(80), avatar: null })
    expect((await look(owner.user.address)).json().displayName).toBe('x'.repeat(50))
  })

  it("is not someone else's to write: a stranger's own public profile does not show", async () => {
    await saveProfile({ public: false })
    const res = await app.inject({
      method: 'POST',
      url: '/api/classes/Profile',
      headers: stranger.headers,
      payload: { data: { displayName: 'Impostor', public: true }, publicRead: true },
    })
    expect(res.statusCode).toBe(201)
    expect((await look(owner.user.address)).json()).toEqual({ address: owner.user.address })
    expect((await look(stranger.user.address)).json().displayName).toBe('Impostor')
  })

  it('answers an address without an account like a private one, and refuses what is not one', async () => {
    const nobody = randomAddress()
    expect((await look(nobody.toLowerCase())).json()).toEqual({ address: nobody })
    for (const bad of ['0x123', 'not-an-address', `0x${'g'.repeat(40)}`]) {
      const res = await look(bad)
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toBeTruthy()
    }
  })
})
