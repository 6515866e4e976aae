import { badRequest } from '../errors.ts'
import { assertFieldName, isPointerClass } from './names.ts'

// Checks and normalises a document before it is stored. Values use the wire forms of
// Date `{ __type: "Date", iso }`, File `{ __type: "File", name, url }`,
// Pointer `{ __type: "Pointer", className, objectId }`, GeoPoint `{ __type: "GeoPoint",
// latitude, longitude }`, Polygon `{ __type: "Polygon", coordinates: [[latitude, longitude], ...] }`
// and Bytes `{ __type: "Bytes", base64 }`. Dates are rewritten to the canonical `toISOString()`
// form so that range queries can compare them as text; Polygons are closed (their first point
// repeated at the end) as Parse Server stores them, so that they compare equal however they were
// sent. Anything else a typed value carries is dropped.

const MAX_DEPTH = 32

export type Document = Record<string, unknown>

function invalid(message: string): never {
  throw badRequest(message, 'invalid_value')
}

/** Checks one value (and what it contains) and returns it with Dates in canonical form. */
export function normaliseValue(value: unknown, path: string, depth = 1): unknown {
  if (depth > MAX_DEPTH) invalid(`"${path}" is nested too deeply (at most ${MAX_DEPTH} levels).`)
  if (Array.isArray(value))
    return value.map((v, i) => normaliseValue(v, `${path}[${i}]`, depth + 1))
  if (value === null || typeof value !== 'object') return value
  const object = value as Record<string, unknown>
  switch (object.__type) {
    case undefined:
      break
    case 'Date': {
      const time = typeof object.iso === 'string' ? Date.parse(object.iso) : Number.NaN
      if (Number.isNaN(time)) invalid(`"${path}" is a Date without a valid "iso" time.`)
      return { __type: 'Date', iso: new Date(time).toISOString() }
    }
    case 'File':
      if (typeof object.name !== 'string' || typeof object.url !== 'string')
        invalid(`"${path}" is a File without "name" and "url".`)
      return { __type: 'File', name: object.name, url: object.url }
    case 'Pointer':
      if (!isPointerClass(object.className) || typeof object.objectId !== 'string')
        invalid(`"${path}" is a Pointer without a valid "className" and "objectId".`)
      return { __type: 'Pointer', className: object.className, objectId: object.objectId }
    case 'GeoPoint':
      return geoPointValue(object, path)
    case 'Polygon':
      return polygonValue(object, path)
    case 'Bytes':
      if (typeof object.base64 !== 'string' || !BASE64.test(object.base64))
        invalid(`"${path}" is Bytes without a valid "base64" string.`)
      return { __type: 'Bytes', base64: object.base64 }
    default:
      invalid(`"${path}" has an unknown __type.`)
  }
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(object)) {
    if (key === '__proto__') invalid(`"${path}" has a "__proto__" key.`)
    out[key] = normaliseValue(inner, `${path}.${key}`, depth + 1)
  }
  return out
}

/** Standard base64 with its padding, as Parse Server reads Bytes. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** Why a latitude and longitude are not a point on Earth, or undefined when they are. */
export function coordinatesProblem(latitude: unknown, longitude: unknown): string | undefined {
  if (typeof latitude !== 'number' || !Number.isFinite(latitude))
    return 'its latitude is not a number'
  if (typeof longitude !== 'number' || !Number.isFinite(longitude))
    return 'its longitude is not a number'
  if (latitude < -90 || latitude > 90) return `its latitude ${latitude} is outside -90 to 90`
  if (longitude < -180 || longitude > 180)
    return `its longitude ${longitude} is outside -180 to 180`
  return undefined
}

/**
 * A coordinate as stored and compared: magnitudes below 1e-100 degrees (1e-95 metres) are 0.
 * PostgreSQL refuses a float operation whose result underflows to 0, so a stored latitude of
 * 1e-300 would make every distance query on its class fail; at 1e-100 and above none can.
 */
export const coordinate = (degrees: number): number => (Math.abs(degrees) < 1e-100 ? 0 : degrees)

export interface GeoPoint {
  __type: 'GeoPoint'
  latitude: number
  longitude: number
}

function geoPointValue(object: Record<string, unknown>, path: string): GeoPoint {
  const { latitude, longitude } = object
  const problem = coordinatesProblem(latitude, longitude)
  if (problem) invalid(`"${path}" is not a valid GeoPoint: ${problem}.`)
  return {
    __type: 'GeoPoint',
    latitude: coordinate(latitude as number),
    longitude: coordinate(longitude as number),
  }
}

function polygonValue(object: Record<string, unknown>, path: string) {
  const { coordinates } = object
  if (!Array.isArray(coordinates) || coordinates.length < 3)
    invalid(`"${path}" is a Polygon without at least 3 [latitude, longitude] "coordinates".`)
  const points = coordinates.map((point: unknown, i) => {
    if (!Array.isArray(point) || point.length !== 2)
      invalid(`"${path}.coordinates[${i}]" is not a [latitude, longitude] pair.`)
    const problem = coordinatesProblem(point[0], point[1])
    if (problem) invalid(`"${path}.coordinates[${i}]" is not a valid point: ${problem}.`)
    return [coordinate(point[0] as number), coordinate(point[1] as number)]
  })
  const first = points[0]!
  const last = points[points.length - 1]!
  if (first[0] !== last[0] || first[1] !== last[1]) points.push([first[0]!, first[1]!])
  const distinct = new Set(points.map(([lat, lng]) => `${lat},${lng}`))
  if (distinct.size < 3) invalid(`"${path}" is a Polygon without 3 different points.`)
  return { __type: 'Polygon', coordinates: points }
}

/** Validates the top-level field names and the wire forms inside; returns the normalised document. */
export function normaliseDocument(data: unknown): Document {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw badRequest('"data" must be a JSON object.', 'invalid_value')
  }
  const out: Document = {}
  for (const [key, value] of Object.entries(data)) {
    assertFieldName(key)
    out[key] = normaliseValue(value, key, 1)
  }
  return out
}

/** True for a `{ __type: "Date", iso }` value (used by the query translation). */
export function isDateValue(value: unknown): value is { __type: 'Date'; iso: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { __type?: unknown }).__type === 'Date' &&
    typeof (value as { iso?: unknown }).iso === 'string'
  )
}
