import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import { listeningApp, parseLogIn, type ListeningApp, parseSignOff } from '../../test/compat.ts'

// Every Parse type through the real `parse` package (Parse JS SDK, Node build) on Portico's
// mount: GeoPoint, Polygon, Bytes and embedded objects round-tripping exactly, and the SDK's geo
// queries (near, within a distance sorted or not, within a box or polygon, polygonContains),
// counts and a live query on a geo condition.

const require = createRequire(import.meta.url)
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose SDK types
const Parse = require('parse/node') as any

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose SDK types
type ParseObject = any

const names = (objects: ParseObject[]) => objects.map((o) => o.get('name') as string)

describe.each(databaseKinds())('Parse types through the parse SDK on %s', (kind) => {
  let server: ListeningApp

  beforeAll(async () => {
    server = await listeningApp(kind)
    Parse.initialize('portico')
    Parse.serverURL = server.serverUrl
    Parse.liveQueryServerURL = server.serverUrl.replace(/^http/, 'ws')
    Parse.User.enableUnsafeCurrentUser()
    const account = privateKeyToAccount(generatePrivateKey())
    await parseLogIn(Parse, account)
    const Place = Parse.Object.extend('Place')
    const place = (name: string, latitude: number, longitude: number) =>
      new Place({ name, location: new Parse.GeoPoint(latitude, longitude) })
    await Parse.Object.saveAll([
      place('sacramento', 38.52, -121.5),
      place('honolulu', 21.35, -157.93),
      place('sf', 37.75, -122.68),
      place('inside', 1.5, 1.5),
      place('corner', 10, 10),
      place('far', 20, 20),
      new Place({ name: 'nowhere' }),
    ])
    const Area = Parse.Object.extend('Area')
    await Parse.Object.saveAll([
      new Area({
        name: 'square',
        area: new Parse.Polygon([
          [0, 0],
          [0, 10],
          [10, 10],
          [10, 0],
        ]),
      }),
      // Latitude 0 to 20, longitude 0 to 1: a swapped reading would miss its points.
      new Area({
        name: 'tall',
        area: new Parse.Polygon([
          [0, 0],
          [20, 0],
          [20, 1],
          [0, 1],
        ]),
      }),
    ])
  })
  afterAll(async () => {
    await parseSignOff(Parse)
    await server.close()
  })

  const sfo = () => new Parse.GeoPoint(37.6189722, -122.3748889)
  const places = () => new Parse.Query('Place')

  it('saves and fetches GeoPoint, Polygon, Bytes and embedded objects exactly', async () => {
    const location = new Parse.GeoPoint(-33.8688197, 151.2092955)
    const area = new Parse.Polygon([
      [1.5, 2.25],
      [3, 4],
      [5, -6.125],
    ])
    const raw = { __type: 'Bytes', base64: 'AAECA/7/' }
    const nested = {
      list: [1, 'two', null, [true, { deep: [{ a: [] }, {}] }]],
      where: { label: 'x', points: [[1, 2], [3]] },
    }
    const Typed = Parse.Object.extend('Typed')
    const saved = await new Typed({
      location,
      area,
      raw,
      nested,
    }).save()
    // A class holds one GeoPoint field (Parse's rule): the corner of the map in a class of its own.
    const corner = await new Parse.Object('Corner', { edge: new Parse.GeoPoint(-90, 180) }).save()
    const fetched = await new Parse.Query('Typed').get(saved.id)
    expect(fetched.get('location')).toBeInstanceOf(Parse.GeoPoint)
    expect(fetched.get('location').toJSON()).toEqual({
      __type: 'GeoPoint',
      latitude: -33.8688197,
      longitude: 151.2092955,
    })
    expect((await new Parse.Query('Corner').get(corner.id)).get('edge').toJSON()).toEqual({
      __type: 'GeoPoint',
      latitude: -90,
      longitude: 180,
    })
    // Closed by the server, as Parse Server stores Polygons.
    expect(fetched.get('area')).toBeInstanceOf(Parse.Polygon)
    expect(fetched.get('area').coordinates).toEqual([
      [1.5, 2.25],
      [3, 4],
      [5, -6.125],
      [1.5, 2.25],
    ])
    expect(fetched.get('raw')).toEqual(raw)
    expect(Buffer.from(fetched.get('raw').base64, 'base64')).toEqual(
      Buffer.from([0, 1, 2, 3, 254, 255]),
    )
    expect(fetched.get('nested')).toEqual(nested)
    // And equality on them finds the object.
    expect(await new Parse.Query('Typed').equalTo('location', location).count()).toBe(1)
  })

  it('sorts near() nearest first, and withinKilometers / Miles / Radians sorted or not', async () => {
    expect(names(await places().near('location', sfo()).find())).toEqual([
      'sf',
      'sacramento',
      'honolulu',
      'far',
      'corner',
      'inside',
    ])
    const within = async (method: string, distance: number, sorted?: boolean) =>
      names(await places()[method]('location', sfo(), distance, sorted).find())
    // Sorted (the default): $nearSphere with $maxDistance, nearest first.
    expect(await within('withinKilometers', 3700)).toEqual(['sf', 'sacramento'])
    expect(await within('withinKilometers', 4800)).toEqual(['sf', 'sacramento', 'honolulu'])
    expect(await within('withinKilometers', 100)).toEqual(['sf'])
    expect(await within('withinKilometers', 10)).toEqual([])
    expect(await within('withinMiles', 2200)).toEqual(['sf', 'sacramento'])
    expect(await within('withinMiles', 62)).toEqual(['sf'])
    expect(await within('withinRadians', 3700 / 6371)).toEqual(['sf', 'sacramento'])
    // Unsorted: $geoWithin $centerSphere, in the query's own order.
    const unsorted = (method: string, distance: number) =>
      places()[method]('location', sfo(), distance, false).ascending('name').find()
    expect(names(await unsorted('withinKilometers', 3700))).toEqual(['sacramento', 'sf'])
    expect(names(await unsorted('withinMiles', 2600))).toEqual(['honolulu', 'sacramento', 'sf'])
    expect(names(await unsorted('withinRadians', 100 / 6371))).toEqual(['sf'])
    // An order asked for wins over nearest first; counts count what matches.
    const byName = places().withinKilometers('location', sfo(), 3700).descending('name')
    expect(names(await byName.find())).toEqual(['sf', 'sacramento'])
    expect(await places().withinKilometers('location', sfo(), 4800).count()).toBe(3)
    const either = Parse.Query.or(
      places().withinKilometers('location', new Parse.GeoPoint(10, 10), 5),
      places().withinKilometers('location', new Parse.GeoPoint(20, 20), 5),
    )
    expect(await either.count()).toBe(2)
  })

  it('finds GeoPoints in a box and in a polygon, and Polygons that contain a point', async () => {
    const box = await places()
      .withinGeoBox('location', new Parse.GeoPoint(0, 0), new Parse.GeoPoint(10, 10))
      .ascending('name')
      .find()
    expect(names(box)).toEqual(['corner', 'inside'])
    const polygon = [
      new Parse.GeoPoint(0, 0),
      new Parse.GeoPoint(0, 10),
      new Parse.GeoPoint(10, 10),
      new Parse.GeoPoint(10, 0),
    ]
    const inPolygon = await places().withinPolygon('location', polygon).ascending('name').find()
    expect(names(inPolygon)).toEqual(['corner', 'inside'])
    const containing = async (latitude: number, longitude: number) =>
      names(
        await new Parse.Query('Area')
          .polygonContains('area', new Parse.GeoPoint(latitude, longitude))
          .ascending('name')
          .find(),
      )
    expect(await containing(0.5, 0.5)).toEqual(['square', 'tall'])
    expect(await containing(15, 0.5)).toEqual(['tall'])
    expect(await containing(0.5, 15)).toEqual([])
    expect(await containing(10, 10)).toEqual(['square'])
  })

  it("refuses malformed geo queries with Parse's codes (107 for a $geoWithin value), never a 5xx", async () => {
    const query = places()
    query._addCondition('location', '$geoWithin', { $polygon: 1234 })
    await expect(query.find()).rejects.toMatchObject({
      code: 107,
      message: '$polygon takes at least 3 points.',
    })
    // The SDK's own withinPolygon, given too few points or not points.
    await expect(
      places()
        .withinPolygon('location', [[1, 2]])
        .find(),
    ).rejects.toMatchObject({ code: 107 })
    await expect(places().withinPolygon('location', [1, 2, 3]).find()).rejects.toMatchObject({
      code: 107,
    })
    const intersects = places()
    intersects._addCondition('area', '$geoIntersects', { $point: [0, 0] })
    await expect(intersects.find()).rejects.toMatchObject({ code: 107 })
    const far = places()
    far._addCondition('location', '$nearSphere', {
      __type: 'GeoPoint',
      latitude: 0,
      longitude: 200,
    })
    await expect(far.find()).rejects.toMatchObject({ code: 102 })
  })

  it('gets live updates on a geo condition: enter and leave as a GeoPoint moves', async () => {
    const query = new Parse.Query('Courier').withinKilometers('location', sfo(), 50, false)
    const subscription = await query.subscribe()
    const events: string[] = []
    const seen = new Promise<void>((resolve) => {
      for (const name of ['create', 'enter', 'update', 'leave'])
        subscription.on(name, (object: ParseObject) => {
          events.push(`${name}:${String(object.get('stop'))}`)
          if (name === 'leave') resolve()
        })
    })
    const Courier = Parse.Object.extend('Courier')
    const courier = await new Courier({
      stop: 'sacramento',
      location: new Parse.GeoPoint(38.52, -121.5),
    }).save()
    courier.set({ stop: 'sf', location: new Parse.GeoPoint(37.75, -122.68) })
    await courier.save()
    courier.set({ stop: 'daly city', location: new Parse.GeoPoint(37.69, -122.47) })
    await courier.save()
    courier.set({ stop: 'honolulu', location: new Parse.GeoPoint(21.35, -157.93) })
    await courier.save()
    await seen
    expect(events).toEqual(['enter:sf', 'update:daly city', 'leave:honolulu'])
    await subscription.unsubscribe()
  })
})
