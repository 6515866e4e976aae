import type { Changer } from '../objects/access.ts'
import { parseWhere, type Condition } from '../objects/condition.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { Sync } from '../sync/definition.ts'
import { ParseCode, ParseError } from './parse-error.ts'
import { relationConstraints, type RelationHolders } from './relation-queries.ts'
import { resolveSubQueries } from './sub-queries.ts'
import { syncedView } from './synced-classes.ts'

// A Parse `where` as the store runs it, the one way a find, a LiveQuery subscription and a
// `distinct` read it, so that a `where` selects the same objects in each. In Parse Server's
// order: sub-queries (`$inQuery`, `$select`, …) are run, as the caller, and replaced by the
// lists they select (sub-queries.ts, whose inner `where`s go through these same steps for their
// own class); then constraints on relation fields become constraints on the ids of the objects
// whose relation holds the members (relation-queries.ts); then a synced class's field names and
// values are read as its rows hold them (synced-classes.ts); last, the store's parse.

type Where = Record<string, unknown>

/** What the steps read: the store (sub-queries), relations, and the syncs' classes. */
export interface WhereSources {
  relationHolders: RelationHolders
  objects: ObjectStore
  syncs: readonly Sync[]
}

export interface WhereCall {
  sources: WhereSources
  /** Whose sub-queries these are: each is read under this caller's access. */
  viewer: Changer | undefined
  /** A class name a sub-query names, checked as the mount checks class names. */
  className(name: unknown): string
}

export interface StoredWhere {
  /** The `where` as the store holds what it names, as JSON (what `beforeFind` triggers see). */
  where: Where | undefined
  condition: Condition | undefined
}

/** `where` from an envelope (an object) or a query string (JSON text); refuses anything else. */
export function whereOf(value: unknown): Where | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value === 'string') {
    try {
      return whereOf(JSON.parse(value) as unknown) ?? {}
    } catch (error) {
      if (error instanceof ParseError) throw error
      throw new ParseError(ParseCode.INVALID_JSON, '"where" is not valid JSON.')
    }
  }
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ParseError(ParseCode.INVALID_QUERY, '"where" must be an object.')
  return value as Where
}

/** The `where` a client sent on `className`, through every step, and its parsed condition. */
export async function storedWhere(
  call: WhereCall,
  className: string,
  sent: unknown,
): Promise<StoredWhere> {
  const resolved = await resolveSubQueries(
    {
      store: call.sources.objects,
      viewer: call.viewer,
      className: call.className,
      storedWhere: (inner, where) => asStored(call.sources, inner, where),
    },
    whereOf(sent),
  )
  const where = await asStored(call.sources, className, resolved)
  return { where, condition: where ? parseWhere(where) : undefined }
}

/** A `where` without sub-queries as `className` stores what it names. */
async function asStored(
  sources: WhereSources,
  className: string,
  where: Where | undefined,
): Promise<Where | undefined> {
  const related = await relationConstraints(sources.relationHolders, className, where)
  const view = syncedView(sources, className)
  return view ? view.where(related) : related
}
