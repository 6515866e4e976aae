import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import { keepOnLoopback, listeningApp, type ListeningApp } from '../../test/compat.ts'

// The access model through the real moralis-v1 client, as a v1 app uses it: Moralis.Role and
// Moralis.ACL naming several users and roles, public write, relations, geo queries, and the
// master key its server scripts start with.

const require = createRequire(import.meta.url)
keepOnLoopback('moralis-v1/lib/node/RESTController.js')
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
const Moralis = require('moralis-v1/node') as any

const MASTER = 'moralis-master-key-for-tests'

describe.each(databaseKinds())('moralis-v1 and the access model on %s', (kind) => {
  let server: ListeningApp
  const keys = Array.from({ length: 4 }, () => generatePrivateKey())
  const users: { id: string }[] = []

  /** Signs in with the n-th wallet (Moralis.authenticate signs with the private key). */
  const as = async (n: number) => {
    const user = await Moralis.authenticate({
      provider: 'network',
      urls: { 1: 'http://127.0.0.1:9' },
      chainId: 1,
      privateKey: keys[n],
    })
    users[n] = user
    return user
  }

  beforeAll(async () => {
    server = await listeningApp(kind, {
      compat: {
        mount: '/server',
        legacySignIn: true,
        masterKey: MASTER,
        masterKeyIps: ['127.0.0.1/8'],
      },
    })
    Moralis.User.enableUnsafeCurrentUser()
    await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico', masterKey: MASTER })
    for (const n of [3, 2, 1, 0]) await as(n)
  })
  afterAll(async () => {
    await Moralis.User.logOut().catch(() => {})
    await server.close()
  })

  const texts = (found: { get(k: string): unknown }[]) => found.map((o) => o.get('text')).sort()

  it('reads and writes by users and inherited roles, and refuses the rest', async () => {
    const owner = await as(0)
    const roleAcl = new Moralis.ACL(owner)
    roleAcl.setPublicReadAccess(true)
    const editors = new Moralis.Role('Editors', roleAcl)
    editors.getUsers().add(users[1])
    await editors.save()
    const chiefs = new Moralis.Role('Chiefs', roleAcl)
    chiefs.getRoles().add(editors)
    await chiefs.save()

    const Article = Moralis.Object.extend('Article')
    const acl = new Moralis.ACL(owner)
    acl.setReadAccess(users[2]!.id, true)
    acl.setRoleReadAccess('Chiefs', true)
    acl.setRoleWriteAccess('Editors', true)
    await new Article({ text: 'draft' }).setACL(acl).save()
    const board = new Article({ text: 'board' })
    const open = new Moralis.ACL(owner)
    open.setPublicReadAccess(true)
    open.setPublicWriteAccess(true)
    await board.setACL(open).save()

    await as(1)
    const draft = await new Moralis.Query('Article').equalTo('text', 'draft').first()
    draft.set('text', 'edited')
    await draft.save()
    await as(2)
    expect(texts(await new Moralis.Query('Article').find())).toEqual(['board', 'edited'])
    const readOnly = await new Moralis.Query('Article').equalTo('text', 'edited').first()
    readOnly.set('text', 'vandalised')
    await expect(readOnly.save()).rejects.toMatchObject({ code: 101 })
    await as(3)
    expect(texts(await new Moralis.Query('Article').find())).toEqual(['board'])
    const anyone = await new Moralis.Query('Article').get(board.id)
    anyone.set('text', 'board, signed by a visitor')
    await anyone.save()
    // The server scripts' master key reads everything.
    const all = await new Moralis.Query('Article').find({ useMasterKey: true })
    expect(texts(all)).toEqual(['board, signed by a visitor', 'edited'])
  })

  it('keeps relations and answers geo queries', async () => {
    await as(0)
    const Place = Moralis.Object.extend('Place')
    const near = await new Place({
      text: 'near',
      at: new Moralis.GeoPoint({ latitude: 48.85, longitude: 2.35 }),
    }).save()
    const far = await new Place({
      text: 'far',
      at: new Moralis.GeoPoint({ latitude: 40.71, longitude: -74.0 }),
    }).save()
    const Trip = Moralis.Object.extend('Trip')
    const trip = new Trip({ text: 'trip' })
    trip.relation('stops').add([near, far])
    await trip.save()
    const stops = trip.relation('stops').query()
    stops.withinKilometers('at', new Moralis.GeoPoint({ latitude: 48.86, longitude: 2.34 }), 50)
    expect(texts(await stops.find())).toEqual(['near'])
    const nearest = new Moralis.Query('Place').near(
      'at',
      new Moralis.GeoPoint({ latitude: 41, longitude: -73 }),
    )
    expect(texts([await nearest.first()])).toEqual(['far'])
  })
})
