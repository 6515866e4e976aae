import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'

// Every Parse type through `/api`, stored and answered exactly, and the geo operators of the
// query language against a real database: distances, boxes, polygons, nearest-first order, what
// is not a GeoPoint, and the refusals of malformed geo input.

const point = (latitude: number, longitude: number) => ({
  __type: 'GeoPoint',
  latitude,
  longitude,
})
/** A Polygon as stored: [latitude, longitude] pairs. */
const polygon = (...coordinates: number[][]) => ({ __type: 'Polygon', coordinates })

const sfo = point(37.6189722, -122.3748889)

const places = [
  { name: 'sf', location: point(37.75, -122.68) },
  { name: 'sacramento', location: point(38.52, -121.5) },
  { name: 'honolulu', location: point(21.35, -157.93) },
  { name: 'inside', location: point(1.5, 1.5) },
  { name: 'corner', location: point(10, 10) },
  { name: 'far', location: point(20, 20) },
  { name: 'east', location: point(5, 15) },
  // None of these is a GeoPoint: they match no geo operator.
  { name: 'nowhere' },
  { name: 'text', location: '37.75,-122.68' },
  { name: 'plain', location: { latitude: 37.75, longitude: -122.68 } },
  { name: 'square', location: polygon([0, 0], [0, 10], [10, 10], [10, 0]) },
]

const areas = [
  { name: 'square', area: polygon([0, 0], [0, 10], [10, 10], [10, 0]) },
  // Tall and narrow (latitude 0 to 20, longitude 0 to 1): a swapped reading would miss its points.
  { name: 'tall', area: polygon([0, 0], [20, 0], [20, 1], [0, 1]) },
  { name: 'point', area: point(5, 5) },
  { name: 'none' },
]

describe.each(databaseKinds())('Parse types and geo queries through /api on %s', (kind) => {
  let app: FastifyInstance
  let headers: Record<string, string>

  async function create(className: string, data: object) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/classes/${className}`,
      headers,
      payload: { data },
    })
    expect(res.statusCode, res.body).toBe(201)
    return res.json() as { objectId: string; data: Record<string, unknown> }
  }

  beforeAll(async () => {
    ;({ app } = await testApp(kind))
    ;({ headers } = await signedIn(app))
    for (const data of places) await create('Place', data)
    for (const data of areas) await create('Area', data)
  })

  async function query(className: string, params: Record<string, string | object | undefined>) {
    const search = new URLSearchParams()
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined) search.set(k, typeof v === 'string' ? v : JSON.stringify(v))
    }
    return app.inject({ url: `/api/classes/${className}?${search}`, headers })
  }
  async function names(where: object, order?: string, className = 'Place') {
    const res = await query(className, { where, order })
    expect(res.statusCode, res.body).toBe(200)
    return (res.json().results as { data: { name: string } }[]).map((r) => r.data.name)
  }

  it('stores every Parse type and answers it exactly, nested ones included', async () => {
    const data = {
      location: point(-33.8688197, 151.2092955),
      edge: point(-90, 180),
      area: polygon([1.5, 2.25], [3, 4], [5, -6.125], [1.5, 2.25]),
      raw: { __type: 'Bytes', base64: 'AAECA/7/' },
      when: { __type: 'Date', iso: '2024-05-01T10:00:00.000Z' },
      nested: {
        list: [1, 'two', null, [true, { deep: [point(1, 2), { __type: 'Bytes', base64: '' }] }]],
        empty: { inner: {}, none: [] },
      },
    }
    const created = await create('Typed', data)
    expect(created.data).toEqual(data)
    const read = await app.inject({ url: `/api/classes/Typed/${created.objectId}`, headers })
    expect(read.json().data).toEqual(data)
    // An open Polygon is closed as Parse Server stores it.
    const open = await create('Typed', { area: polygon([0, 0], [0, 1], [1, 1]) })
    expect(open.data.area).toEqual(polygon([0, 0], [0, 1], [1, 1], [0, 0]))
    // Equality compares the stored forms: a GeoPoint, and a Polygon sent open or closed.
    expect(
      await names({ location: point(-33.8688197, 151.2092955) }, undefined, 'Typed'),
    ).toHaveLength(1)
    const found = await query('Typed', { where: { area: polygon([0, 0], [0, 1], [1, 1]) } })
    expect(found.json().results.map((r: { objectId: string }) => r.objectId)).toEqual([
      open.objectId,
    ])
  })

  it('refuses malformed typed values with a 400 naming the field', async () => {
    for (const [value, message] of [
      [point(91, 0), '"v" is not a valid GeoPoint: its latitude 91 is outside -90 to 90.'],
      [
        polygon([0, 0], [1, 1]),
        '"v" is a Polygon without at least 3 [latitude, longitude] "coordinates".',
      ],
      [{ __type: 'Bytes', base64: 'not base64' }, '"v" is Bytes without a valid "base64" string.'],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/classes/Typed',
        headers,
        payload: { data: { v: value } },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toEqual({ code: 'invalid_value', message })
    }
  })

  it('finds GeoPoints within a distance, nearest first unless another order is asked', async () => {
    // $nearSphere alone: every GeoPoint, nearest first.
    const all = await names({ location: { $nearSphere: sfo } })
    expect(all.slice(0, 3)).toEqual(['sf', 'sacramento', 'honolulu'])
    expect(all).toHaveLength(7)
    const within = (distance: object) => names({ location: { $nearSphere: sfo, ...distance } })
    expect(await within({ $maxDistance: 3700 / 6371 })).toEqual(['sf', 'sacramento'])
    expect(await within({ $maxDistanceInRadians: 3700 / 6371 })).toEqual(['sf', 'sacramento'])
    expect(await within({ $maxDistanceInKilometers: 3700 })).toEqual(['sf', 'sacramento'])
    // Honolulu is about 3,850 km from SFO.
    expect(await within({ $maxDistanceInKilometers: 3900 })).toEqual([
      'sf',
      'sacramento',
      'honolulu',
    ])
    expect(await within({ $maxDistanceInKilometers: 100 })).toEqual(['sf'])
    expect(await within({ $maxDistanceInKilometers: 10 })).toEqual([])
    expect(await within({ $maxDistanceInMiles: 2200 })).toEqual(['sf', 'sacramento'])
    expect(await within({ $maxDistanceInMiles: 62 })).toEqual(['sf'])
    // An order given wins over nearest first; so does paging through the nearest.
    expect(
      await names({ location: { $nearSphere: sfo, $maxDistanceInKilometers: 3700 } }, 'name'),
    ).toEqual(['sacramento', 'sf'])
    const second = await query('Place', {
      where: { location: { $nearSphere: sfo } },
      limit: '1',
      skip: '1',
      count: '1',
    })
    expect(second.json().count).toBe(7)
    expect(second.json().results[0].data.name).toBe('sacramento')
    // Across the antimeridian (about 2,300 km away): great-circle distances, not flat ones.
    expect(
      await names({
        location: { $nearSphere: point(21.35, 179.9), $maxDistanceInKilometers: 2500 },
      }),
    ).toEqual(['honolulu'])
  })

  it('finds GeoPoints within a sphere, a box and a polygon, edges included', async () => {
    const center = [sfo.longitude, sfo.latitude]
    expect(
      await names({ location: { $geoWithin: { $centerSphere: [center, 3700 / 6371] } } }, 'name'),
    ).toEqual(['sacramento', 'sf'])
    expect(await names({ location: { $geoWithin: { $centerSphere: [sfo, 100 / 6371] } } })).toEqual(
      ['sf'],
    )
    const box = (southwest: object, northeast: object) =>
      names({ location: { $within: { $box: [southwest, northeast] } } }, 'name')
    expect(await box(point(0, 0), point(10, 10))).toEqual(['corner', 'inside'])
    // Latitude 0 to 10, longitude 0 to 20 takes in the east; the transposed box does not.
    expect(await box(point(0, 0), point(10, 20))).toEqual(['corner', 'east', 'inside'])
    expect(await box(point(0, 0), point(20, 10))).toEqual(['corner', 'inside'])
    // Corners given the other way round make the same box, as in Parse Server on PostgreSQL.
    expect(await box(point(10, 20), point(0, 0))).toEqual(['corner', 'east', 'inside'])
    const within = (polygonValue: unknown) =>
      names({ location: { $geoWithin: { $polygon: polygonValue } } }, 'name')
    expect(await within([point(0, 0), point(0, 10), point(10, 10), point(10, 0)])).toEqual([
      'corner',
      'inside',
    ])
    // Bare pairs, and a Polygon's coordinates, are [longitude, latitude] here, as Parse Server
    // reads them: longitude 0 to 20, latitude 0 to 10.
    const wide = [
      [0, 0],
      [20, 0],
      [20, 10],
      [0, 10],
    ]
    expect(await within(wide)).toEqual(['corner', 'east', 'inside'])
    expect(await within({ __type: 'Polygon', coordinates: wide })).toEqual([
      'corner',
      'east',
      'inside',
    ])
  })

  it('finds the Polygons that contain a point', async () => {
    const containing = (latitude: number, longitude: number) =>
      names({ area: { $geoIntersects: { $point: point(latitude, longitude) } } }, 'name', 'Area')
    expect(await containing(0.5, 0.5)).toEqual(['square', 'tall'])
    expect(await containing(15, 0.5)).toEqual(['tall'])
    expect(await containing(0.5, 15)).toEqual([])
    expect(await containing(5, 5)).toEqual(['square'])
    // On an edge, and on a corner.
    expect(await containing(10, 5)).toEqual(['square'])
    expect(await containing(10, 10)).toEqual(['square'])
    expect(await containing(-1, -1)).toEqual([])
  })

  it('keeps distance queries working whatever tiny coordinates are stored or asked', async () => {
    // PostgreSQL refuses float results that underflow to 0: such coordinates are stored as 0.
    const tiny = await create('Tiny', { at: point(1e-300, -5e-324), name: 'tiny' })
    expect(tiny.data.at).toEqual(point(0, 0))
    await create('Tiny', { at: point(1e-100, 1e-100), name: 'small' })
    for (const near of [point(0, 0), point(5e-324, 1e-200), point(1e-100, 0)]) {
      const res = await query('Tiny', { where: { at: { $nearSphere: near, $maxDistance: 1 } } })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().results).toHaveLength(2)
    }
  })

  it('refuses malformed geo queries with a 400, never a 500', async () => {
    const bad: [object, string][] = [
      [
        { location: { $nearSphere: point(91, 0) } },
        '$nearSphere takes a point on Earth: its latitude 91 is outside -90 to 90.',
      ],
      [{ location: { $nearSphere: [0, 0] } }, '$nearSphere takes a GeoPoint.'],
      [{ location: { $nearSphere: 'here' } }, '$nearSphere takes a GeoPoint.'],
      [
        { location: { $nearSphere: sfo, $maxDistance: -1 } },
        '$maxDistance takes a distance of 0 or more.',
      ],
      [
        { location: { $nearSphere: sfo, $maxDistanceInMiles: '5' } },
        '$maxDistanceInMiles takes a distance of 0 or more.',
      ],
      [
        { location: { $nearSphere: sfo, $maxDistance: 1, $maxDistanceInMiles: 1 } },
        '$nearSphere takes one distance: $maxDistance, $maxDistanceInRadians, $maxDistanceInKilometers or $maxDistanceInMiles.',
      ],
      [{ location: { $maxDistance: 1 } }, '$maxDistance goes with $nearSphere.'],
      [
        { location: { $within: { $box: [sfo] } } },
        '$within takes { $box: [southwest, northeast] }, two GeoPoints.',
      ],
      [{ location: { $within: { $circle: [] } } }, '$within takes { $box: ... }.'],
      [{ location: { $geoWithin: { $polygon: 1234 } } }, '$polygon takes at least 3 points.'],
      [{ location: { $geoWithin: { $polygon: [{}] } } }, '$polygon takes at least 3 points.'],
      [
        { location: { $geoWithin: { $polygon: [{}, {}, {}] } } },
        '$polygon takes a point on Earth: its latitude is not a number.',
      ],
      [
        {
          location: {
            $geoWithin: {
              $polygon: [
                [0, 0],
                [181, 0],
                [0, 10],
              ],
            },
          },
        },
        '$polygon takes a point on Earth: its longitude 181 is outside -180 to 180.',
      ],
      [
        {
          location: {
            $geoWithin: {
              $polygon: {
                __type: 'Polygon',
                coordinates: [
                  [0, 0],
                  [10, 0],
                ],
              },
            },
          },
        },
        '$polygon takes at least 3 points.',
      ],
      [
        { location: { $geoWithin: { $polygon: { __type: 'GeoPoint' } } } },
        '$polygon takes a Polygon or a list of GeoPoints.',
      ],
      [
        { location: { $geoWithin: { $centerSphere: [sfo] } } },
        '$centerSphere takes [center, radians], the center a GeoPoint.',
      ],
      [
        { location: { $geoWithin: { $centerSphere: [sfo, 'far'] } } },
        '$centerSphere takes a distance of 0 or more.',
      ],
      [
        { location: { $geoWithin: { $centerSphere: [[0, 100], 1] } } },
        '$centerSphere takes a point on Earth: its latitude 100 is outside -90 to 90.',
      ],
      [
        { location: { $geoWithin: {} } },
        '$geoWithin takes { $polygon: ... } or { $centerSphere: ... }.',
      ],
      [
        { location: { $geoWithin: { $polygon: [], $centerSphere: [] } } },
        '$geoWithin takes { $polygon: ... } or { $centerSphere: ... }.',
      ],
      [{ area: { $geoIntersects: { $point: [0, 0] } } }, '$geoIntersects.$point takes a GeoPoint.'],
      [
        { area: { $geoIntersects: { $point: { __type: 'Pointer', latitude: 0, longitude: 0 } } } },
        '$geoIntersects.$point takes a GeoPoint.',
      ],
      [{ createdAt: { $nearSphere: sfo } }, '$nearSphere applies to document fields.'],
    ]
    for (const [where, message] of bad) {
      const res = await query('Place', { where })
      expect(res.statusCode, JSON.stringify(where)).toBe(400)
      expect(res.json().error, JSON.stringify(where)).toEqual({ code: 'invalid_query', message })
    }
  })
})
