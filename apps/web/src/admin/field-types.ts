// The data browser's field types: inferred from the values on screen (or declared for a class),
// shown in column headers, and what each cell's text and editor are. Values use the wire forms
// of the object API (`{ __type: "Date", iso }`, Pointer, File, GeoPoint, Polygon, Bytes,
// Relation).

import { FIELD_TYPES, type ConsoleDeclaredField } from '@portico/sdk/wire'

export { FIELD_TYPES }
export type FieldType = (typeof FIELD_TYPES)[number] | 'acl'

/** How a type is named in a column header. */
export const TYPE_LABEL: Record<FieldType, string> = {
  string: 'String',
  number: 'Number',
  boolean: 'Boolean',
  date: 'Date',
  pointer: 'Pointer',
  relation: 'Relation',
  file: 'File',
  geopoint: 'GeoPoint',
  polygon: 'Polygon',
  bytes: 'Bytes',
  array: 'Array',
  object: 'Object',
  acl: 'ACL',
}

/** Whether `text` is a class or field name as the server takes one. */
export const isName = (text: string) => /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(text)

/** A column declared for a class before any object has a value in it. */
export type DeclaredField = ConsoleDeclaredField

/** One column of the browser: a document field, or one of the object's own columns. */
export interface GridColumn {
  key: string
  type: FieldType
  /** Pointers and relations: the class they name, when known. */
  targetClass?: string | undefined
  /** The object's own columns (id, times, ACL), not a document field. */
  builtIn?: boolean
  /** Nobody edits it in a cell (ids, times, relations). */
  readOnly?: boolean
}

const typed = (value: unknown): string | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? ((value as { __type?: unknown }).__type as string | undefined)
    : undefined

/** The type of one value; undefined for null and unset. */
export function typeOfValue(value: unknown): FieldType | undefined {
  if (value === null || value === undefined) return undefined
  if (Array.isArray(value)) return 'array'
  switch (typeof value) {
    case 'string':
      return 'string'
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'object':
      switch (typed(value)) {
        case 'Date':
          return 'date'
        case 'Pointer':
          return 'pointer'
        case 'Relation':
          return 'relation'
        case 'File':
          return 'file'
        case 'GeoPoint':
          return 'geopoint'
        case 'Polygon':
          return 'polygon'
        case 'Bytes':
          return 'bytes'
        default:
          return 'object'
      }
    default:
      return 'object'
  }
}

/**
 * The columns of a page of objects: the object's id first, then each document field (declared
 * ones too, before any object has a value), its type from the first value that has one, then
 * the times and the ACL.
 */
export function columnsOf(
  documents: readonly Record<string, unknown>[],
  declared: Record<string, DeclaredField> = {},
): GridColumn[] {
  const fields = new Map<string, GridColumn>()
  for (const [key, field] of Object.entries(declared))
    fields.set(key, { key, type: field.type, targetClass: field.targetClass })
  // A field's type is its first value's that has one (null says nothing about it).
  const inferred = new Set<string>()
  for (const data of documents)
    for (const [key, value] of Object.entries(data)) {
      if (declared[key] || inferred.has(key)) continue
      const type = typeOfValue(value)
      if (!type) {
        if (!fields.has(key)) fields.set(key, { key, type: 'string' })
        continue
      }
      inferred.add(key)
      const target =
        type === 'pointer' || type === 'relation'
          ? (value as { className?: string }).className
          : undefined
      fields.set(key, { key, type, targetClass: target })
    }
  const documentColumns = [...fields.values()]
    .sort((a, b) => a.key.localeCompare(b.key))
    .map((column) => (column.type === 'relation' ? { ...column, readOnly: true } : column))
  return [
    { key: 'objectId', type: 'string', builtIn: true, readOnly: true },
    ...documentColumns,
    { key: 'createdAt', type: 'date', builtIn: true, readOnly: true },
    { key: 'updatedAt', type: 'date', builtIn: true, readOnly: true },
    { key: 'ACL', type: 'acl', builtIn: true, readOnly: true },
  ]
}

/** A local date and time as the browser shows it (the editor shows the same). */
export const localDateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

/** A cell's text (links and files are drawn by the grid from the value itself). */
export function cellText(value: unknown): string {
  if (value === undefined) return ''
  if (value === null) return 'null'
  const object = value as Record<string, unknown>
  switch (typeOfValue(value)) {
    case 'string':
      return value as string
    case 'number':
    case 'boolean':
      return String(value)
    case 'date':
      return localDateTime(object.iso as string)
    case 'pointer':
      return `${String(object.className)} ${String(object.objectId)}`
    case 'relation':
      return `Relation to ${String(object.className)}`
    case 'file':
      return String(object.name)
    case 'geopoint':
      return `${String(object.latitude)}, ${String(object.longitude)}`
    case 'polygon':
      return pointsOf(object).join('; ')
    case 'bytes': {
      const base64 = String(object.base64 ?? '')
      return `${byteLength(base64)} bytes: ${base64.length > 24 ? `${base64.slice(0, 24)}…` : base64}`
    }
    default:
      return JSON.stringify(value)
  }
}

/** A Polygon's points as `latitude, longitude` texts. */
const pointsOf = (polygon: Record<string, unknown>) =>
  (Array.isArray(polygon.coordinates) ? (polygon.coordinates as unknown[][]) : []).map(
    ([lat, lng]) => `${String(lat)}, ${String(lng)}`,
  )

/** The bytes a standard base64 text holds. */
const byteLength = (base64: string) =>
  Math.floor((base64.length * 3) / 4) - (base64.match(/=+$/)?.[0].length ?? 0)

/** Standard base64 with its padding, as the server reads Bytes. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** `latitude, longitude` as numbers, or why it is not one. */
function coordinate(text: string): { point: [number, number] } | { problem: string } {
  const parts = text.split(',').map((part) => part.trim())
  // An empty part is no coordinate (Number('') would read it as 0).
  if (parts.length !== 2 || parts.some((part) => part === ''))
    return { problem: 'Give both latitude and longitude (e.g. 48.85, 2.35).' }
  const [lat, lng] = parts.map(Number) as [number, number]
  if (!(Math.abs(lat) <= 90) || !(Math.abs(lng) <= 180))
    return { problem: 'Latitude is from -90 to 90 and longitude from -180 to 180.' }
  return { point: [lat, lng] }
}

/** `<input type="datetime-local">`'s value for an ISO time, in the browser's time zone. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso)
  const pad = (n: number, size = 2) => String(n).padStart(size, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
}

/** What an editor hands back: the value to store, or why it cannot be stored. */
export type Parsed = { value: unknown } | { problem: string }

/**
 * Reads what was typed in a cell's editor as a value of `type`: the check made before saving
 * (the server checks again). An empty text unsets the field, except for a string.
 */
export function parseEdit(
  type: FieldType,
  text: string,
  options: { targetClass?: string | undefined } = {},
): Parsed {
  const trimmed = text.trim()
  if (type !== 'string' && trimmed === '') return { value: undefined }
  switch (type) {
    case 'string':
      return { value: text }
    case 'number': {
      const number = Number(trimmed)
      return Number.isFinite(number)
        ? { value: number }
        : { problem: `"${trimmed}" is not a number.` }
    }
    case 'boolean':
      return trimmed === 'true' || trimmed === 'false'
        ? { value: trimmed === 'true' }
        : { problem: 'Choose true or false.' }
    case 'date': {
      const time = Date.parse(trimmed)
      return Number.isNaN(time)
        ? { problem: `"${trimmed}" is not a date and time.` }
        : { value: { __type: 'Date', iso: new Date(time).toISOString() } }
    }
    case 'pointer': {
      if (!options.targetClass) return { problem: 'This pointer does not say which class.' }
      return /^[A-Za-z0-9_-]{1,64}$/.test(trimmed)
        ? { value: { __type: 'Pointer', className: options.targetClass, objectId: trimmed } }
        : { problem: 'An object id has only letters, digits, _ and - (at most 64).' }
    }
    case 'geopoint': {
      const read = coordinate(trimmed)
      if ('problem' in read) return read
      return { value: { __type: 'GeoPoint', latitude: read.point[0], longitude: read.point[1] } }
    }
    case 'polygon': {
      const lines = trimmed.split(/[\n;]/).filter((line) => line.trim() !== '')
      const coordinates: [number, number][] = []
      for (const [i, line] of lines.entries()) {
        const read = coordinate(line)
        if ('problem' in read) return { problem: `Point ${i + 1}: ${read.problem}` }
        coordinates.push(read.point)
      }
      if (new Set(coordinates.map((point) => point.join(','))).size < 3)
        return { problem: 'A polygon needs at least 3 different points, one per line.' }
      return { value: { __type: 'Polygon', coordinates } }
    }
    case 'bytes':
      return BASE64.test(trimmed)
        ? { value: { __type: 'Bytes', base64: trimmed } }
        : { problem: 'Give the bytes as standard base64 (A–Z, a–z, 0–9, + and /, padded with =).' }
    case 'array':
    case 'object': {
      let value: unknown
      try {
        value = JSON.parse(trimmed)
      } catch (error) {
        return { problem: `The JSON is not valid: ${(error as Error).message}` }
      }
      const isArray = Array.isArray(value)
      if (type === 'array' ? !isArray : isArray || value === null || typeof value !== 'object')
        return {
          problem: type === 'array' ? 'Give a JSON array: [ … ].' : 'Give a JSON object: { … }.',
        }
      return { value }
    }
    default:
      return { problem: 'This column is not edited in a cell.' }
  }
}

/** What an editor starts with for a value. */
export function editText(type: FieldType, value: unknown): string {
  if (value === undefined || value === null) return ''
  const object = value as Record<string, unknown>
  switch (type) {
    case 'date':
      return typeof object.iso === 'string' ? toLocalInput(object.iso) : ''
    case 'pointer':
      return String(object.objectId ?? '')
    case 'geopoint':
      return `${String(object.latitude)}, ${String(object.longitude)}`
    case 'polygon':
      return pointsOf(object).join('\n')
    case 'bytes':
      return String(object.base64 ?? '')
    case 'array':
    case 'object':
      return JSON.stringify(value, null, 2)
    default:
      return typeof value === 'string' ? value : JSON.stringify(value)
  }
}
