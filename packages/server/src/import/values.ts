import { HttpError } from '../errors.ts'
import { isPointerClass } from '../objects/names.ts'
import { pointerTo } from '../objects/parse-shape.ts'
import { relationMarker } from '../objects/relations.ts'
import { normaliseValue } from '../objects/wire.ts'

// A field's value as a Parse export writes it, made into the value Portico stores:
// - a pointer the Dashboard wrote as the target's whole object (`{"__type": "Object",
//   "className", "objectId", …}`, at any depth, in arrays and nested objects too) becomes the
//   Pointer it stands for: the target's fields are its own class's to import;
// - a Relation (`{"__type": "Relation", "className"}`, a field's placeholder: its members are
//   only in `_Join` files) is kept as that marker, so reads show the field;
// - everything else is checked and canonicalised as any stored value is (objects/wire.ts).

/** Why a value cannot be imported; `field` is its path in the row. */
export class ValueRefused extends Error {
  constructor(
    readonly field: string,
    message: string,
    /** What the user can do about it. */
    readonly hint?: string,
  ) {
    super(message)
  }
}

/** A File value found in a row: only its reference is imported. */
export interface FileReference {
  field: string
  name: string
  url: string
}

const MAX_DEPTH = 32

/** The stored form of top-level field `field`'s value; File references go to `files`. */
export function storedValue(field: string, value: unknown, files: FileReference[]): unknown {
  const typed = value as { __type?: unknown; className?: unknown } | null
  if (typed && typeof typed === 'object' && typed.__type === 'Relation') {
    if (!isPointerClass(typed.className))
      throw new ValueRefused(field, `"${field}" is a Relation without a valid "className"`)
    return relationMarker(typed.className)
  }
  const plain = pointersOf(value, field, 1, files)
  try {
    return normaliseValue(plain, field, 1)
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    throw new ValueRefused(field, error.message.replace(/\.$/, ''))
  }
}

/** `value` with embedded objects made Pointers; checks what PostgreSQL cannot store. */
function pointersOf(value: unknown, path: string, depth: number, files: FileReference[]): unknown {
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      throw new ValueRefused(
        path,
        `"${path}" holds the character U+0000, which the database cannot store`,
        'Remove it from the value in the file and run the import again.',
      )
    return value
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value
  if (Array.isArray(value))
    return value.map((item, i) => pointersOf(item, `${path}[${i}]`, depth + 1, files))
  const object = value as Record<string, unknown>
  if (object.__type === 'Object') {
    if (!isPointerClass(object.className) || typeof object.objectId !== 'string')
      throw new ValueRefused(
        path,
        `"${path}" is an embedded object without a valid "className" and "objectId"`,
      )
    return pointerTo({ className: object.className, objectId: object.objectId })
  }
  if (object.__type === 'Relation')
    throw new ValueRefused(path, `"${path}" is a Relation inside another value`)
  if (object.__type === 'File' && typeof object.name === 'string')
    files.push({
      field: path,
      name: object.name,
      url: typeof object.url === 'string' ? object.url : '',
    })
  if (object.__type !== undefined) return object
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(object))
    out[key] = pointersOf(inner, `${path}.${key}`, depth + 1, files)
  return out
}
