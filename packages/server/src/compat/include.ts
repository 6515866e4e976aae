import type { Changer } from '../objects/access.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { ParseCode, ParseError } from './parse-error.ts'
import { embeddedParseObject, isPointer, type ParseObject } from '../objects/parse-shape.ts'

// Parse's `include`: the pointers a query names (`author`, `author.city`, an array of pointers,
// `*` for every pointer field of the results) replaced by the objects they point at. Each level
// is read in one statement under the caller's own access rule: an object the caller may not
// read stays a bare pointer, as in Parse.

/** Levels a path may go down (`a.b.c.d.e`). */
export const MAX_INCLUDE_DEPTH = 5
/** Paths one query may include. */
const MAX_INCLUDE_PATHS = 20
/** Objects one level reads at most (the rest stay pointers). */
const MAX_LEVEL_READS = 1_000

/** What to include below one object: fields by name, each with its own below; `all` for `*`. */
interface IncludeTree {
  all: boolean
  fields: Map<string, IncludeTree>
}

const emptyTree = (): IncludeTree => ({ all: false, fields: new Map() })

/** The include paths as a tree; `*` (includeAll) names every pointer field of the results. */
export function includeTree(paths: readonly string[]): IncludeTree {
  if (paths.length > MAX_INCLUDE_PATHS)
    throw new ParseError(ParseCode.INVALID_QUERY, `Include at most ${MAX_INCLUDE_PATHS} paths.`)
  const root = emptyTree()
  for (const path of paths) {
    if (path === '*') {
      root.all = true
      continue
    }
    const parts = path.split('.')
    if (parts.length > MAX_INCLUDE_DEPTH || parts.some((part) => part === ''))
      throw new ParseError(
        ParseCode.INVALID_QUERY,
        `Include paths are field names joined by dots, at most ${MAX_INCLUDE_DEPTH} deep.`,
      )
    let node = root
    for (const part of parts) {
      let next = node.fields.get(part)
      if (!next) node.fields.set(part, (next = emptyTree()))
      node = next
    }
  }
  return root
}

const holdsPointers = (value: unknown) =>
  isPointer(value) || (Array.isArray(value) && value.some(isPointer))

/** The included objects found in `object[field]` (one, or those in an array). */
function includedIn(value: unknown): ParseObject[] {
  const isObject = (item: unknown): item is ParseObject =>
    (item as { __type?: unknown } | null)?.__type === 'Object'
  if (Array.isArray(value)) return value.filter(isObject)
  return isObject(value) ? [value] : []
}

/**
 * Replaces, in `objects` (Parse-shaped results, changed in place), the pointers `tree` names by
 * the objects they point at that `viewer` may read, level by level.
 */
export async function resolveIncludes(
  store: ObjectStore,
  objects: ParseObject[],
  tree: IncludeTree,
  viewer: Changer | undefined,
): Promise<void> {
  let level: { objects: ParseObject[]; tree: IncludeTree }[] = [{ objects, tree }]
  for (let depth = 0; depth < MAX_INCLUDE_DEPTH && level.length > 0; depth++) {
    // Which field of which object is resolved, with what is below it.
    const slots: { object: ParseObject; field: string; below: IncludeTree }[] = []
    for (const { objects: here, tree: node } of level)
      for (const object of here) {
        const fields = new Map(node.fields)
        if (node.all)
          for (const [field, value] of Object.entries(object))
            if (!fields.has(field) && holdsPointers(value)) fields.set(field, emptyTree())
        for (const [field, below] of fields) slots.push({ object, field, below })
      }
    const keys = new Map<string, { className: string; objectId: string }>()
    for (const { object, field } of slots) {
      const value = object[field]
      for (const item of Array.isArray(value) ? value : [value])
        if (isPointer(item) && keys.size < MAX_LEVEL_READS)
          keys.set(`${item.className}/${item.objectId}`, item)
    }
    const found = keys.size ? await store.readable([...keys.values()], viewer) : new Map()
    // One Parse object per stored object, shared by every place that points at it.
    const read = new Map<string, ParseObject>()
    const resolve = (item: unknown) => {
      if (!isPointer(item)) return item
      const key = `${item.className}/${item.objectId}`
      const target = found.get(key)
      if (!target) return item
      let object = read.get(key)
      if (!object) read.set(key, (object = embeddedParseObject(target)))
      return object
    }
    const next: typeof level = []
    for (const { object, field, below } of slots) {
      const value = object[field]
      object[field] = Array.isArray(value) ? value.map(resolve) : resolve(value)
      if (below.all || below.fields.size > 0)
        next.push({ objects: includedIn(object[field]), tree: below })
    }
    level = next
  }
}
