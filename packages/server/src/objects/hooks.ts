import type { Changer } from './access.ts'
import type { Acl } from './acl.ts'
import type { WireObject } from './rows.ts'
import type { Document } from './wire.ts'

// What the object store runs around its writes and reads, whatever surface called it (`/api`,
// batch, the compatibility mount, the console, the SDK, synced rows): the site's cloud-code
// triggers. The store knows nothing of cloud code; it asks `handles` first, so a class without
// triggers costs nothing.

export type HookKind =
  | 'beforeSave'
  | 'afterSave'
  | 'beforeDelete'
  | 'afterDelete'
  | 'beforeFind'
  | 'afterFind'

/** Who writes or reads: a user id, `ANY_OWNER` (the master key), or undefined (a visitor). */
export type HookActor = Changer | undefined

/** What one write carries from its `before` trigger to its `after` trigger (Parse's `context`). */
export type HookContext = Record<string, unknown>

export interface SaveDraft {
  className: string
  /** Undefined for a create. */
  objectId?: string | undefined
  data: Document
  acl: Acl
}

/** A query as a `find` trigger sees and changes it: `where` as JSON. */
export interface FindDraft {
  where: Record<string, unknown>
  order?: string | undefined
  limit: number
  skip: number
}

export interface ObjectHooks {
  /** Whether `className` has a trigger of `kind` (checked before anything is built). */
  handles(kind: HookKind, className: string): boolean
  /** A fresh context for one write. */
  context(): HookContext
  /** May change the document and ACL about to be saved, or refuse the write (throws). */
  beforeSave(
    draft: SaveDraft,
    original: WireObject | null,
    actor: HookActor,
    context: HookContext,
  ): Promise<{ data: Document; acl: Acl }>
  /** Told after the commit; never throws (its failures are logged). */
  afterSave(
    object: WireObject,
    original: WireObject | null,
    actor: HookActor,
    context: HookContext,
  ): Promise<void>
  /** May refuse a delete (throws). */
  beforeDelete(object: WireObject, actor: HookActor, context: HookContext): Promise<void>
  /** Told after the commit; never throws. */
  afterDelete(object: WireObject, actor: HookActor, context: HookContext): Promise<void>
  /** May change a query (or refuse it). */
  beforeFind(
    className: string,
    query: FindDraft,
    actor: HookActor,
    isGet: boolean,
  ): Promise<FindDraft>
  /** May change or replace what a query found. */
  afterFind(
    className: string,
    objects: WireObject[],
    actor: HookActor,
    isGet: boolean,
  ): Promise<WireObject[]>
}

/** A store without triggers. */
export const noHooks: ObjectHooks = {
  handles: () => false,
  context: () => ({}),
  beforeSave: async (draft) => ({ data: draft.data, acl: draft.acl }),
  afterSave: async () => {},
  beforeDelete: async () => {},
  afterDelete: async () => {},
  beforeFind: async (_className, query) => query,
  afterFind: async (_className, objects) => objects,
}

/**
 * Hooks set after the store is built (cloud code loads once the services exist, and its SDK
 * calls the store): the store holds this and the server points it at the real hooks.
 */
export class SwitchableHooks implements ObjectHooks {
  current: ObjectHooks = noHooks
  handles(kind: HookKind, className: string) {
    return this.current.handles(kind, className)
  }
  context() {
    return this.current.context()
  }
  beforeSave(...args: Parameters<ObjectHooks['beforeSave']>) {
    return this.current.beforeSave(...args)
  }
  afterSave(...args: Parameters<ObjectHooks['afterSave']>) {
    return this.current.afterSave(...args)
  }
  beforeDelete(...args: Parameters<ObjectHooks['beforeDelete']>) {
    return this.current.beforeDelete(...args)
  }
  afterDelete(...args: Parameters<ObjectHooks['afterDelete']>) {
    return this.current.afterDelete(...args)
  }
  beforeFind(...args: Parameters<ObjectHooks['beforeFind']>) {
    return this.current.beforeFind(...args)
  }
  afterFind(...args: Parameters<ObjectHooks['afterFind']>) {
    return this.current.afterFind(...args)
  }
}
