import { badRequest, HttpError } from '../errors.ts'
import { coordinate, coordinatesProblem } from './wire.ts'

// The geo operators of the query language, in the wire forms the Parse SDK sends and Parse
// Server reads (see geo-query.ts for their SQL):
//   { $nearSphere: GeoPoint, $maxDistance: radians }      also $maxDistanceInRadians,
//                                                         $maxDistanceInKilometers, $maxDistanceInMiles
//   { $within: { $box: [southwest GeoPoint, northeast GeoPoint] } }
//   { $geoWithin: { $polygon: [GeoPoint | [longitude, latitude], ...] | Polygon } }
//   { $geoWithin: { $centerSphere: [GeoPoint | [longitude, latitude], radians] } }
//   { $geoIntersects: { $point: GeoPoint } }               on a Polygon field
// Bare pairs are [longitude, latitude] here, as Parse Server reads them (MongoDB's order), and so
// are a Polygon's coordinates under `$polygon`; a stored Polygon's are [latitude, longitude].

/** A point on Earth, in degrees. */
export interface LatLng {
  latitude: number
  longitude: number
}

/** One geo operator on a document field, checked. */
export type GeoTest =
  /**
   * Within `maxDistance` radians (a great-circle angle) of `point`, or any GeoPoint without one;
   * at the top of a `where` without an `order`, nearest first.
   */
  | { op: '$nearSphere'; point: LatLng; maxDistance: number | undefined }
  /** In the box between two corners, edges included (latitude and longitude compared flat). */
  | { op: '$box'; southwest: LatLng; northeast: LatLng }
  /** In the polygon, edges included (latitude and longitude as plane coordinates). */
  | { op: '$polygon'; points: LatLng[] }
  /** Within `radians` (a great-circle angle) of `center`. */
  | { op: '$centerSphere'; center: LatLng; radians: number }
  /** A Polygon field that contains the point, edges included. */
  | { op: '$geoIntersects'; point: LatLng }

/** The operators that start a geo test. */
export const GEO_OPERATORS = new Set(['$nearSphere', '$within', '$geoWithin', '$geoIntersects'])

/** The distances that go with `$nearSphere`, and the radius of the Earth in their unit. */
export const DISTANCE_UNITS: Record<string, number> = {
  $maxDistance: 1,
  $maxDistanceInRadians: 1,
  $maxDistanceInKilometers: 6371,
  $maxDistanceInMiles: 3959,
}

/** Most points a `$polygon` query takes. */
export const MAX_QUERY_POLYGON = 1000

const invalid = (message: string) => badRequest(message, 'invalid_query')

/**
 * A geo operator and its value → its test. `siblings` are the other operators on the same field,
 * where the distance of a `$nearSphere` is.
 */
export function geoTest(op: string, value: unknown, siblings: [string, unknown][]): GeoTest {
  switch (op) {
    case '$nearSphere':
      return {
        op,
        point: geoPoint(value, '$nearSphere'),
        maxDistance: nearDistance(siblings),
      }
    case '$within': {
      const box = only(value, '$within', ['$box']).$box
      if (!Array.isArray(box) || box.length !== 2)
        throw invalid('$within takes { $box: [southwest, northeast] }, two GeoPoints.')
      return {
        op: '$box',
        southwest: geoPoint(box[0], '$box'),
        northeast: geoPoint(box[1], '$box'),
      }
    }
    case '$geoWithin':
      return asGeoValue(() => {
        const within = only(value, '$geoWithin', ['$polygon', '$centerSphere'])
        if ('$polygon' in within) return { op: '$polygon', points: polygon(within.$polygon) }
        return centerSphere(within.$centerSphere)
      })
    case '$geoIntersects':
      return asGeoValue(() => {
        const point = only(value, '$geoIntersects', ['$point']).$point
        return { op: '$geoIntersects', point: geoPoint(point, '$geoIntersects.$point') }
      })
  }
  throw invalid(`Unknown operator ${op.slice(0, 20)}.`)
}

/**
 * A malformed value of `$geoWithin` or `$geoIntersects`: the same refusal on `/api`, but Parse
 * answers it with 107 (invalid JSON) where other bad queries are 102, and the mount follows it.
 */
export class GeoValueError extends HttpError {
  constructor(message: string) {
    super(400, 'invalid_query', message)
  }
}

function asGeoValue(read: () => GeoTest): GeoTest {
  try {
    return read()
  } catch (error) {
    if (error instanceof HttpError) throw new GeoValueError(error.message)
    throw error
  }
}

/** An object of exactly one of `keys`. */
function only(value: unknown, op: string, keys: string[]): Record<string, unknown> {
  const forms = keys.map((key) => `{ ${key}: ... }`).join(' or ')
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalid(`${op} takes ${forms}.`)
  const given = Object.keys(value)
  if (given.length !== 1 || !keys.includes(given[0]!)) throw invalid(`${op} takes ${forms}.`)
  return value as Record<string, unknown>
}

/** A GeoPoint `{ __type: "GeoPoint", latitude, longitude }` (the `__type` may be left out). */
function geoPoint(value: unknown, where: string): LatLng {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalid(`${where} takes a GeoPoint.`)
  const { __type, latitude, longitude } = value as Record<string, unknown>
  if (__type !== undefined && __type !== 'GeoPoint') throw invalid(`${where} takes a GeoPoint.`)
  return checked(latitude, longitude, where)
}

/** A GeoPoint, or a bare [longitude, latitude] pair. */
function pointOrPair(value: unknown, where: string): LatLng {
  if (!Array.isArray(value)) return geoPoint(value, where)
  if (value.length !== 2) throw invalid(`${where} takes GeoPoints or [longitude, latitude] pairs.`)
  return checked(value[1], value[0], where)
}

function checked(latitude: unknown, longitude: unknown, where: string): LatLng {
  const problem = coordinatesProblem(latitude, longitude)
  if (problem) throw invalid(`${where} takes a point on Earth: ${problem}.`)
  return { latitude: coordinate(latitude as number), longitude: coordinate(longitude as number) }
}

function distance(value: unknown, op: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw invalid(`${op} takes a distance of 0 or more.`)
  return value
}

/** The one distance among a `$nearSphere`'s siblings, in radians, if any. */
function nearDistance(siblings: [string, unknown][]): number | undefined {
  const given = siblings.filter(([op]) => Object.hasOwn(DISTANCE_UNITS, op))
  if (given.length > 1)
    throw invalid(
      '$nearSphere takes one distance: $maxDistance, $maxDistanceInRadians, $maxDistanceInKilometers or $maxDistanceInMiles.',
    )
  const [op, value] = given[0] ?? []
  return op === undefined ? undefined : distance(value, op) / DISTANCE_UNITS[op]!
}

function polygon(value: unknown): LatLng[] {
  let points: unknown = value
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    if ((value as { __type?: unknown }).__type !== 'Polygon')
      throw invalid('$polygon takes a Polygon or a list of GeoPoints.')
    points = (value as { coordinates?: unknown }).coordinates
  }
  if (!Array.isArray(points) || points.length < 3)
    throw invalid('$polygon takes at least 3 points.')
  if (points.length > MAX_QUERY_POLYGON)
    throw invalid(`$polygon takes at most ${MAX_QUERY_POLYGON} points.`)
  return points.map((point) => pointOrPair(point, '$polygon'))
}

function centerSphere(value: unknown): GeoTest {
  if (!Array.isArray(value) || value.length !== 2)
    throw invalid('$centerSphere takes [center, radians], the center a GeoPoint.')
  return {
    op: '$centerSphere',
    center: pointOrPair(value[0], '$centerSphere'),
    radians: distance(value[1], '$centerSphere'),
  }
}
