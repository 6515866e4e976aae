import { HttpError } from '../errors.ts'
import { ANY_OWNER, type Changer } from './access.ts'
import type { ObjectChange } from './changes.ts'
import { parseWhere } from './condition.ts'
import type { HookActor, HookContext, ObjectHooks } from './hooks.ts'
import type { Change, ObjectQuery } from './object-store.ts'
import type { WireObject } from './rows.ts'
import type { Acl } from './acl.ts'
import type { Document } from './wire.ts'
import type { CreateRequest } from './writer.ts'

// The site's triggers around the store's reads and writes (hooks.ts): `beforeFind` and
// `afterFind` around queries and gets, `beforeSave` / `afterSave` around creates and changes,
// `beforeDelete` / `afterDelete` around deletes. A `beforeSave` of a change runs outside the
// write's transaction (it may read and write objects itself, and the embedded database has one
// connection): the change is planned from the object as read, and written only if the object
// is still as it was read, else planned again (`replanning`). Every step asks `handles` first,
// so a class without triggers costs nothing.

type Page = { results: WireObject[]; count?: number }

/** A change as its `beforeSave` left it, planned from the object as it was read. */
export interface PlannedChange {
  before: WireObject
  next: Change
}

/** Times a change is planned again when its object changed while its `beforeSave` ran. */
const MAX_REPLANS = 5

export class Triggers {
  constructor(private readonly hooks: ObjectHooks) {}

  /** Whether `className` has a find trigger (a get then runs as a query, as Parse runs it). */
  findsHooked(className: string): boolean {
    return this.hooks.handles('beforeFind', className) || this.hooks.handles('afterFind', className)
  }

  /** A fresh context when `className` has save triggers, else undefined. */
  saveContext(className: string): HookContext | undefined {
    return this.hooks.handles('beforeSave', className) || this.hooks.handles('afterSave', className)
      ? this.hooks.context()
      : undefined
  }

  /** A fresh context for one write. */
  context(): HookContext {
    return this.hooks.context()
  }

  /** A get as Parse runs it with find triggers: a query for one id that the triggers may change. */
  async get(
    className: string,
    objectId: string,
    viewer: Changer | undefined,
    run: (query: ObjectQuery) => Promise<Page>,
  ): Promise<WireObject | null> {
    let draft = { where: { objectId } as Record<string, unknown>, limit: 1, skip: 0 }
    if (this.hooks.handles('beforeFind', className))
      draft = await this.hooks.beforeFind(className, draft, viewer, true)
    const { results } = await run({
      where: parseWhere(draft.where),
      whereText: JSON.stringify(draft.where),
      limit: 1,
      skip: 0,
    })
    const found = this.hooks.handles('afterFind', className)
      ? await this.hooks.afterFind(className, results, viewer, true)
      : results
    return found[0] ?? null
  }

  /** `run` of `query` as the class's `beforeFind` changes it, its answer as `afterFind` does. */
  async query(
    changer: Changer | undefined,
    className: string,
    query: ObjectQuery,
    run: (query: ObjectQuery) => Promise<Page>,
  ): Promise<Page> {
    const hooks = this.hooks
    let asked = query
    if (hooks.handles('beforeFind', className)) {
      // The trigger sees the `where` as sent; terms it cannot see (a caller's parsed condition
      // without its text) still hold beside what it returns.
      const sent = query.whereText ? (JSON.parse(query.whereText) as Record<string, unknown>) : {}
      const draft = await hooks.beforeFind(
        className,
        { where: sent, order: query.order, limit: query.limit, skip: query.skip },
        changer,
        false,
      )
      const changed = parseWhere(draft.where)
      const unseen = query.whereText === undefined ? (query.where?.terms ?? []) : []
      asked = {
        ...query,
        where: { terms: [...unseen, ...changed.terms] },
        whereText: query.whereText === undefined ? undefined : JSON.stringify(draft.where),
        order: draft.order,
        limit: draft.limit,
        skip: draft.skip,
      }
    }
    const found = await run(asked)
    if (!hooks.handles('afterFind', className)) return found
    return {
      ...found,
      results: await hooks.afterFind(className, found.results, changer, false),
    }
  }

  /** The request as the class's `beforeSave` leaves it (unchanged without one). */
  async beforeCreate(
    request: CreateRequest,
    actor: HookActor,
    context: HookContext,
  ): Promise<CreateRequest> {
    if (!this.hooks.handles('beforeSave', request.className)) return request
    const saved = await this.hooks.beforeSave(
      { className: request.className, data: request.data, acl: request.acl },
      null,
      actor,
      context,
    )
    return { ...request, data: saved.data, acl: saved.acl }
  }

  /** A row about to be imported as the class's `beforeSave` leaves it (run as the master key). */
  async beforeImport<T extends { className: string; id: string; data: Document; acl: Acl }>(
    row: T,
    context: HookContext,
  ): Promise<T> {
    if (!this.hooks.handles('beforeSave', row.className)) return row
    const saved = await this.hooks.beforeSave(
      { className: row.className, objectId: row.id, data: row.data, acl: row.acl },
      null,
      ANY_OWNER,
      context,
    )
    return { ...row, data: saved.data, acl: saved.acl }
  }

  async afterSave(
    object: WireObject,
    original: WireObject | null,
    actor: HookActor,
    context: HookContext,
  ): Promise<void> {
    if (this.hooks.handles('afterSave', object.className))
      await this.hooks.afterSave(object, original, actor, context)
  }

  /** The `after` triggers of changes the server made itself (synced rows, sign-ins, wallets). */
  async afterChanges(changes: readonly ObjectChange[]): Promise<void> {
    for (const change of changes) {
      if (change.kind === 'delete') {
        if (change.before && this.hooks.handles('afterDelete', change.className))
          await this.hooks.afterDelete(change.before, ANY_OWNER, this.hooks.context())
      } else if (change.after && this.hooks.handles('afterSave', change.className))
        await this.hooks.afterSave(change.after, change.before, ANY_OWNER, this.hooks.context())
    }
  }

  /** Whether changes of `className` are wanted by an `afterSave` (built for it once committed). */
  wantsSaved(className: string): boolean {
    return this.hooks.handles('afterSave', className)
  }

  /**
   * Plans a change with the class's `beforeSave` (from the object `current` reads, or throws
   * the refusal) and runs `write` with it, until the object did not move meanwhile; without
   * a `beforeSave`, `write` plans it itself (given null) in its own transaction.
   */
  async replanning<T>(
    input: { className: string; objectId: string; userId: Changer | undefined },
    context: HookContext | undefined,
    current: () => Promise<WireObject>,
    modify: (current: WireObject) => Change,
    write: (planned: PlannedChange | null) => Promise<T | 'moved'>,
  ): Promise<T> {
    const hooked = context !== undefined && this.hooks.handles('beforeSave', input.className)
    for (let attempt = 1; ; attempt++) {
      const planned = hooked ? await this.#plan(input, await current(), modify, context) : null
      const written = await write(planned)
      if (written !== 'moved') return written
      if (attempt >= MAX_REPLANS)
        throw new HttpError(
          409,
          'object_busy',
          'The object kept changing while its beforeSave trigger ran: try again.',
        )
    }
  }

  /** The change `modify` makes to `before`, as its `beforeSave` leaves it. */
  async #plan(
    input: { className: string; objectId: string; userId: Changer | undefined },
    before: WireObject,
    modify: (current: WireObject) => Change,
    context: HookContext,
  ): Promise<PlannedChange> {
    const next = modify(before)
    const saved = await this.hooks.beforeSave(
      {
        className: input.className,
        objectId: input.objectId,
        data: next.data ?? before.data,
        acl: next.acl ?? before.acl,
      },
      before,
      input.userId,
      context,
    )
    return { before, next: { ...next, data: saved.data, acl: saved.acl } }
  }

  /** May refuse a delete (throws); reads the object with `current` only when there is one. */
  async beforeDelete(
    className: string,
    current: () => Promise<WireObject>,
    actor: HookActor,
    context: HookContext,
  ): Promise<void> {
    if (this.hooks.handles('beforeDelete', className))
      await this.hooks.beforeDelete(await current(), actor, context)
  }

  async afterDelete(object: WireObject, actor: HookActor, context: HookContext): Promise<void> {
    if (this.hooks.handles('afterDelete', object.className))
      await this.hooks.afterDelete(object, actor, context)
  }
}
