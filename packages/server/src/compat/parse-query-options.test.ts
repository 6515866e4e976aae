import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds } from '../../test/helpers.ts'
import { type ListeningApp, type ParseSdk, parseTarget } from '../../test/compat.ts'

// Query options a Parse app sends beside `where`, through the real `parse` client: the storage
// names of the times in `order`, `hint` and `comment` (accepted; PostgreSQL plans on its own),
// full text search's accent and case options, `include` of a user, and aggregate pipelines
// with several stages of one kind.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-query-option-tests'
const master = { useMasterKey: true }

describe.each(databaseKinds())('query options through the parse SDK on %s', (kind) => {
  let server: ListeningApp

  beforeAll(async () => {
    server = await parseTarget(kind, Parse, MASTER)
    const Note = Parse.Object.extend('Note')
    const rows = [
      { n: 1, text: 'café com leite' },
      { n: 2, text: 'preparação de cafe com leite' },
      { n: 3, text: 'Preparar Cafe e creme' },
      { n: 4, text: 'green tea' },
    ]
    for (const row of rows) {
      const note = new Note(row)
      note.setACL(new Parse.ACL({ '*': { read: true } }))
      await note.save(null, master)
      // Creation and update orders differ: the first note is touched again last.
    }
    const first = await new Parse.Query('Note').equalTo('n', 1).first(master)
    await first.save({ touched: true }, master)
  })
  afterAll(() => server.close())

  const ns = (found: { get(key: string): unknown }[]) => found.map((o) => o.get('n'))

  it('orders by _created_at and _updated_at as by createdAt and updatedAt', async () => {
    expect(ns(await new Parse.Query('Note').ascending('_created_at').find())).toEqual([1, 2, 3, 4])
    expect(ns(await new Parse.Query('Note').descending('_created_at').find())).toEqual([4, 3, 2, 1])
    expect(ns(await new Parse.Query('Note').ascending('_updated_at').find())).toEqual([2, 3, 4, 1])
    expect(ns(await new Parse.Query('Note').addDescending('_updated_at').find())).toEqual([
      1, 4, 3, 2,
    ])
    // Other internal names stay refused.
    await expect(new Parse.Query('Note').ascending('_password').find()).rejects.toMatchObject({
      code: 105,
    })
  })

  it('accepts hint and comment and answers as without them', async () => {
    const query = new Parse.Query('Note').ascending('n')
    query.hint('_id_')
    query.comment('from the shop page')
    expect(ns(await query.find())).toEqual([1, 2, 3, 4])
    const named = new Parse.Query('Note').ascending('n').hint({ n: 1 })
    expect(ns(await named.find())).toEqual([1, 2, 3, 4])
  })

  it('searches text without regard to accents unless diacritic-sensitive', async () => {
    const search = (term: string, options?: Record<string, unknown>) =>
      new Parse.Query('Note').fullText('text', term, options).ascending('n').find().then(ns)
    // Parse's default: "cafe" finds "café", and "café" finds "cafe".
    expect(await search('cafe')).toEqual([1, 2, 3])
    expect(await search('café')).toEqual([1, 2, 3])
    expect(await search('cafe', { diacriticSensitive: false })).toEqual([1, 2, 3])
    expect(await search('cafe', { diacriticSensitive: true })).toEqual([2, 3])
    expect(await search('café', { diacriticSensitive: true })).toEqual([1])
    expect(await search('cafe', { caseSensitive: true, diacriticSensitive: true })).toEqual([2])
    expect(await search('Cafe', { caseSensitive: true })).toEqual([3])
    expect(await search('preparacao', { language: 'portuguese' })).toEqual([2])
    await expect(search('cafe', { diacriticSensitive: 'yes' })).rejects.toMatchObject({
      code: 102,
    })
  })

  it('includes a user a pointer field names', async () => {
    const user = await Parse.User.signUp('bob', 'a password', { age: 21 })
    const acl = new Parse.ACL()
    acl.setPublicReadAccess(true)
    user.setACL(acl)
    await user.save(null, { sessionToken: user.getSessionToken() })
    const Post = Parse.Object.extend('Post')
    const post = await new Post({ author: user }).save(null, master)
    const found = await new Parse.Query('Post').include('author').get(post.id, master)
    expect(found.get('author')).toBeInstanceOf(Parse.User)
    expect(found.get('author').get('age')).toBe(21)
    expect(found.get('author').get('username')).toBe('bob')
    await Parse.User.logOut()
  })

  it('runs pipelines with several stages of the same kind', async () => {
    const rows = await new Parse.Query('Note').aggregate([
      { $match: { n: { $gte: 2 } } },
      { $project: { n: 1, text: 1 } },
      { $match: { n: { $lte: 3 } } },
      { $sort: { n: -1 } },
    ])
    expect(rows.map((row: { n: number }) => row.n)).toEqual([3, 2])
    const totals = await new Parse.Query('Note').aggregate([
      { $group: { _id: '$touched', total: { $sum: '$n' } } },
      { $match: { total: { $gt: 5 } } },
      { $group: { _id: null, groups: { $sum: 1 } } },
    ])
    expect(totals).toEqual([{ objectId: null, groups: 1 }])
    // A later $match reads the time fields still in the documents as times.
    const created = (await new Parse.Query('Note').equalTo('n', 3).first(master)).createdAt
    const later = await new Parse.Query('Note').aggregate([
      { $sort: { n: 1 } },
      { $match: { createdAt: { $gte: { __type: 'Date', iso: created.toISOString() } } } },
      { $project: { n: 1 } },
    ])
    expect(later.map((row: { n: number }) => row.n)).toEqual([3, 4])
  })

  it('reads constraints on a relation field as Parse does, and queries an unfetched parent', async () => {
    const Child = Parse.Object.extend('Child')
    const children = []
    for (let x = 0; x < 6; x++) children.push(await new Child({ x }).save(null, master))
    const first = new Parse.Object('Parent', { x: 1 })
    first.relation('child').add(children.slice(0, 3))
    const second = new Parse.Object('Parent', { x: 2 })
    second.relation('child').add(children.slice(3, 5))
    await Parse.Object.saveAll([first, second], master)
    const xs = (found: { get(key: string): unknown }[]) => found.map((o) => o.get('x')).sort()
    const parents = () => new Parse.Query('Parent')
    expect(
      xs(await parents().containedIn('child', [children[4], children[5]]).find(master)),
    ).toEqual([2])
    expect(xs(await parents().equalTo('child', children[1]).find(master))).toEqual([1])
    expect(xs(await parents().notContainedIn('child', [children[0]]).find(master))).toEqual([2])
    expect(xs(await parents().equalTo('child', children[5]).find(master))).toEqual([])
    expect(xs(await parents().equalTo('child', children[0]).equalTo('x', 2).find(master))).toEqual(
      [],
    )

    // An object the client has not fetched: the SDK does not know the members' class.
    const unfetched = new Parse.Object('Parent')
    unfetched.id = second.id
    const members = await unfetched.relation('child').query().find(master)
    expect(members.map((o: { className: string }) => o.className)).toEqual(['Child', 'Child'])
    expect(members.map((o: { get(key: string): unknown }) => o.get('x')).sort()).toEqual([3, 4])
    const one = await unfetched.relation('child').query().get(children[3].id, master)
    expect(one.className).toBe('Child')
    await expect(
      unfetched.relation('child').query().get(children[0].id, master),
    ).rejects.toMatchObject({ code: 101 })
  })

  it('purges a class with the master key, and deletes it once empty', async () => {
    const Crate = Parse.Object.extend('Crate')
    await Parse.Object.saveAll([new Crate({ n: 1 }), new Crate({ n: 2 })], master)
    const schema = new Parse.Schema('Crate')
    await expect(schema.delete()).rejects.toMatchObject({
      code: 255,
      message: 'Class Crate is not empty, contains 2 objects, cannot drop schema.',
    })
    const refused = await fetch(`${server.serverUrl}/purge/Crate`, {
      method: 'DELETE',
      headers: { 'x-parse-application-id': 'portico' },
    })
    expect(await refused.json()).toMatchObject({ code: 119 })
    expect(await new Parse.Query('Crate').count(master)).toBe(2)
    await schema.purge()
    expect(await new Parse.Query('Crate').count(master)).toBe(0)
    await schema.delete()
    await expect(schema.get()).rejects.toMatchObject({ code: 103 })
    await expect(new Parse.Schema('_User').purge()).rejects.toMatchObject({ code: 119 })
  })

  it("applies the schema's default values and required fields to writes", async () => {
    const schema = new Parse.Schema('Ticket')
    schema
      .addString('status', { required: true, defaultValue: 'open' })
      .addNumber('priority', { defaultValue: 3 })
      .addString('title', { required: true })
    await schema.save()
    const Ticket = Parse.Object.extend('Ticket')
    const ticket = await new Ticket({ title: 'Printer' }).save(null, master)
    // The client holds the defaults from the save's answer, and they are stored.
    expect([ticket.get('status'), ticket.get('priority')]).toEqual(['open', 3])
    const stored = await new Parse.Query('Ticket').get(ticket.id, master)
    expect([stored.get('status'), stored.get('priority')]).toEqual(['open', 3])
    const given = await new Ticket({ title: 'Desk', status: 'closed' }).save(null, master)
    expect(given.get('status')).toBe('closed')

    await expect(new Ticket({ status: 'open' }).save(null, master)).rejects.toMatchObject({
      code: 142,
      message: 'title is required',
    })
    await expect(new Ticket({ title: '' }).save(null, master)).rejects.toMatchObject({
      code: 142,
    })
    ticket.unset('title')
    await expect(ticket.save(null, master)).rejects.toMatchObject({ code: 142 })
    ticket.set('priority', null)
    ticket.set('title', 'Printer')
    await ticket.save(null, master)
    expect((await new Parse.Query('Ticket').get(ticket.id, master)).get('priority')).toBe(null)
    // A name Parse Server refuses on every database.
    await expect(new Ticket({ title: 'x', length: 5 }).save(null, master)).rejects.toMatchObject({
      code: 105,
      message: 'Invalid field name: length.',
    })
  })

  it('stores a Polygon closed, its first point repeated at the end, as Parse Server does', async () => {
    const open = [
      [0, 0],
      [0, 1],
      [1, 1],
      [1, 0],
    ]
    const closed = [...open, [0, 0]]
    const schema = new Parse.Schema('Field')
    schema.addPolygon('area', { defaultValue: new Parse.Polygon(open) })
    const saved = await schema.save()
    // The schema keeps the default as it was declared.
    expect(saved.fields.area.defaultValue).toEqual({ __type: 'Polygon', coordinates: open })
    const Field = Parse.Object.extend('Field')
    // From the default: the save's answer and a read give it closed.
    const byDefault = await new Field().save(null, master)
    expect(byDefault.get('area').coordinates).toEqual(closed)
    expect(
      (await new Parse.Query('Field').get(byDefault.id, master)).get('area').coordinates,
    ).toEqual(closed)
    // Sent by the client, on a create and on an update: stored closed (the client keeps what it
    // sent until it reads the object again, as with Parse Server).
    const sent = await new Field({ area: new Parse.Polygon(open) }).save(null, master)
    expect((await new Parse.Query('Field').get(sent.id, master)).get('area').coordinates).toEqual(
      closed,
    )
    sent.set(
      'area',
      new Parse.Polygon([
        [2, 2],
        [2, 3],
        [3, 3],
      ]),
    )
    await sent.save(null, master)
    expect((await new Parse.Query('Field').get(sent.id, master)).get('area').coordinates).toEqual([
      [2, 2],
      [2, 3],
      [3, 3],
      [2, 2],
    ])
  })
})
