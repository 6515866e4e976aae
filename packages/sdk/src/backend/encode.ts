import { InvalidDateError, InvalidWireValueError, UnsavedFileError } from '../errors/backend.ts'
import { Pointer, PorticoFile } from './values.ts'

// Wire forms of the values objects hold besides JSON:
//   Date    { __type: "Date", iso }
//   File    { __type: "File", name, url }
//   Pointer { __type: "Pointer", className, objectId }
// GeoPoint `{ __type: "GeoPoint", latitude, longitude }`, Polygon `{ __type: "Polygon",
// coordinates: [[latitude, longitude], ...] }` and Bytes `{ __type: "Bytes", base64 }` are
// plain JSON both ways: written and read in their wire forms.

export type EncodeErrorType = UnsavedFileError | InvalidDateError
export type DecodeErrorType = InvalidWireValueError

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/**
 * Turns a value (deeply) into JSON the server stores: Dates, files and pointers into their wire
 * forms; `undefined` fields are left out.
 *
 * @throws UnsavedFileError `Tried to encode an unsaved file` — save the file first.
 * @throws InvalidDateError `Tried to encode an invalid date`.
 * @example encode({ when: new Date(0) }) // { when: { __type: 'Date', iso: '1970-01-01T00:00:00.000Z' } }
 */
export function encode(value: unknown): unknown {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new InvalidDateError()
    return { __type: 'Date', iso: value.toISOString() }
  }
  if (value instanceof PorticoFile) {
    if (value.url === undefined) throw new UnsavedFileError({ name: value.name })
    return { __type: 'File', name: value.name, url: value.url }
  }
  if (value instanceof Pointer) {
    return { __type: 'Pointer', className: value.className, objectId: value.objectId }
  }
  if (Array.isArray(value)) return value.map(encode)
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) {
      if (inner !== undefined) out[key] = encode(inner)
    }
    return out
  }
  return value
}

/**
 * Turns stored JSON (deeply) back into values: Date wire forms into `Date`, files into
 * `PorticoFile`, pointers into `Pointer`.
 *
 * @throws InvalidWireValueError when a `__type` value is malformed.
 */
export function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode)
  if (!isPlainObject(value)) return value
  switch (value.__type) {
    case 'Date': {
      const time = typeof value.iso === 'string' ? Date.parse(value.iso) : Number.NaN
      if (Number.isNaN(time))
        throw new InvalidWireValueError({ details: 'A Date without a valid iso.' })
      return new Date(time)
    }
    case 'File':
      if (typeof value.name !== 'string' || typeof value.url !== 'string')
        throw new InvalidWireValueError({ details: 'A File without name and url.' })
      return new PorticoFile({ name: value.name, url: value.url })
    case 'Pointer':
      if (typeof value.className !== 'string' || typeof value.objectId !== 'string')
        throw new InvalidWireValueError({ details: 'A Pointer without className and objectId.' })
      return new Pointer(value.className, value.objectId)
  }
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) out[key] = decode(inner)
  return out
}
