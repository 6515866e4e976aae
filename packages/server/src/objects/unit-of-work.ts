import { randomBytes } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import type { SQL } from 'drizzle-orm'
import { recordAudit } from '../audit/log.ts'
import { batchConcurrency, type Database } from '../db/client.ts'
import { createCoalescer } from '../db/coalesce.ts'
import { objects } from '../db/schema.ts'
import { HttpError } from '../errors.ts'
import { byId } from './access.ts'
import { permsOf } from './acl.ts'
import type { ObjectChange } from './changes.ts'
import { SCHEMA_CLASS, type ClassPermissionsCache } from './class-permissions.ts'
import type { AuditActor, Change, NewObject, ObjectWrites } from './object-store.ts'
import { dropRelations, markRelations, writeRelations, type RelationChange } from './relations.ts'
import { toWire, type WireObject } from './rows.ts'
import { created, TransactionWrites, type WrittenChange } from './transaction-writes.ts'
import type { PlannedChange } from './triggers.ts'
import type { ViewerRoles } from './viewer-roles.ts'
import { writeGroup, type CreateOutcome, type CreateRequest } from './writer.ts'
import type { KeptFields } from './class-rules.ts'
import { assertKeptFields } from './kept-fields.ts'

// The unit of work: each write of the store is one transaction (creates are committed in
// groups, writer.ts), and what it changed is published once it committed: told to live
// listeners on every process, and the roles and permissions every process remembers forgotten
// when a role or a schema was written. Nothing is published for a transaction that rolled back.

export interface UnitOfWorkOptions {
  db: Database
  /** Tells live listeners (on every process) about committed changes. Never throws. */
  publish(changes: ObjectChange[]): Promise<void>
  /** Whether a committed change of `className` is wanted (by a listener or an `afterSave`). */
  wanted(className: string): boolean
  roles: ViewerRoles
  permissions: ClassPermissionsCache | undefined
}

/** What a change's transaction found: the change made, none (not writable), or a moved object. */
export type Changed = { before: WireObject; after: WireObject } | null | 'moved'

export class UnitOfWork {
  readonly #options: UnitOfWorkOptions
  readonly #db: Database
  /** Creates, committed in groups (writer.ts). */
  readonly create: (request: CreateRequest) => Promise<CreateOutcome>

  constructor(options: UnitOfWorkOptions) {
    const { db, publish } = options
    this.#options = options
    this.#db = db
    this.create = createCoalescer(
      (requests: CreateRequest[]) => writeGroup(db, publish, requests),
      100,
      batchConcurrency(db),
    )
  }

  /** Every process forgets the roles it remembered when one of these writes touched a role. */
  async written(classNames: Iterable<string>): Promise<void> {
    let roles = false
    let schemas = false
    for (const className of classNames) {
      roles ||= className === '_Role'
      schemas ||= className === SCHEMA_CLASS
    }
    if (roles) await this.#options.roles.changed()
    if (schemas) await this.#options.permissions?.changed()
  }

  /**
   * Changes the object `writable` selects in one transaction: the row is locked, the change is
   * `planned` (by its `beforeSave`, from the object as it was; 'moved' if it is no longer so)
   * or computed by `modify` now, `fieldsAdded` checks the fields it adds, and the row and its
   * relation members are written. Published once committed.
   */
  async change(
    target: { className: string; objectId: string; auditActor?: AuditActor },
    writable: () => SQL,
    planned: PlannedChange | null,
    modify: (current: WireObject) => Change,
    fieldsAdded: ((tx: Database, fields: string[]) => Promise<void>) | undefined,
    kept?: KeptFields | undefined,
  ): Promise<Changed> {
    const { className, objectId } = target
    const changed = await this.#db.transaction(async (tx): Promise<Changed> => {
      const [row] = await tx.select().from(objects).where(writable()).for('update')
      if (!row) return null
      const before = toWire(row)
      if (planned && !sameObject(planned.before, before)) return 'moved'
      const next = planned?.next ?? modify(before)
      assertKeptFields(kept, before.data, next.data)
      if (next.data && fieldsAdded)
        await fieldsAdded(
          tx,
          Object.keys(next.data).filter((field) => !(field in before.data)),
        )
      const relations = next.relations ?? []
      const data = relations.length ? markRelations(next.data ?? before.data, relations) : next.data
      await writeRelations(tx, className, objectId, relations)
      const [updated] = await tx
        .update(objects)
        .set({
          ...(data ? { data } : {}),
          ...(next.acl === undefined ? {} : permsOf(next.acl)),
          ...(next.ownerId === undefined ? {} : { ownerId: next.ownerId }),
          updatedAt: new Date(),
        })
        .where(byId(className, objectId))
        .returning()
      const after = toWire(updated!)
      await audit(tx, target.auditActor, 'object.update', before, after)
      return { before, after }
    })
    if (changed && changed !== 'moved') {
      await this.written([className])
      await this.#options.publish([{ kind: 'update', className, objectId, ...changed }])
    }
    return changed
  }

  /**
   * Deletes the object `deletable` selects and the relation members it held, in one
   * transaction; returns it as it was (null when there was none to delete). Published once
   * committed.
   */
  async delete(
    target: { className: string; objectId: string; auditActor?: AuditActor },
    deletable: SQL,
  ): Promise<WireObject | null> {
    const { className, objectId } = target
    const before = await this.#db.transaction(async (tx) => {
      const [deleted] = await tx.delete(objects).where(deletable).returning()
      if (!deleted) return null
      await dropRelations(tx, className, [deleted.id])
      const gone = toWire(deleted)
      await audit(tx, target.auditActor, 'object.delete', gone, null)
      return gone
    })
    if (!before) return null
    await this.written([className])
    await this.#options.publish([{ kind: 'delete', className, objectId, before, after: null }])
    return before
  }

  /** Creates an object holding relation members, in one transaction (with its audit entry). */
  async createRelated(request: CreateRequest, relations: RelationChange[]): Promise<WireObject> {
    const { className } = request
    const { result } = await this.committed(async (tx, writes) => {
      const id = request.objectId ?? randomBytes(12).toString('base64url')
      const data = markRelations(request.data, relations)
      // The insert skips a row a unique index refuses: a role's name in use, or an id the
      // client gave (random ids do not clash).
      const [made] = await writes.insertNew(className, request, [{ id, data }], new Date())
      if (!made) throw request.objectId && className !== '_Role' ? idTaken() : nameTaken(data.name)
      await writeRelations(tx, className, id, relations)
      await audit(tx, request.auditActor, 'object.create', null, made)
      return made
    })
    return result
  }

  /** Writes the rows whose id is free in their class, in one statement; published once committed. */
  async insertAbsent(rows: NewObject[]): Promise<ObjectChange[]> {
    const made = (
      await this.#db.insert(objects).values(rows.map(rowOf)).onConflictDoNothing().returning()
    ).map(toWire)
    await this.written(made.map((object) => object.className))
    const changes = made.map(created)
    await this.#options.publish(changes)
    return changes
  }

  /**
   * Runs `work` in one transaction with the server's own writes bound to it; once committed,
   * publishes what they changed and gives those changes (for the `after` triggers).
   */
  async committed<T>(
    work: (tx: Database, writes: ObjectWrites) => Promise<T>,
  ): Promise<{ result: T; changes: ObjectChange[] }> {
    const written: WrittenChange[] = []
    const result = await this.#db.transaction((tx) => work(tx, new TransactionWrites(tx, written)))
    await this.written(written.map((change) => change.className))
    // Built once committed, as they are told: a listener that came during the transaction
    // still hears them, and no object is built for a class no one listens to.
    const changes: ObjectChange[] = []
    for (const change of written) {
      if (!('build' in change)) changes.push(change)
      else if (this.#options.wanted(change.className))
        for (const built of change.build()) changes.push(built)
    }
    await this.#options.publish(changes)
    return { result, changes }
  }
}

/**
 * The audit entry of a change by `actor` (none without one), in the change's transaction `tx`:
 * the change and its entry commit together.
 */
async function audit(
  tx: Database,
  actor: AuditActor,
  action: 'object.create' | 'object.update' | 'object.delete',
  before: WireObject | null,
  after: WireObject | null,
): Promise<void> {
  if (actor === undefined) return
  const object = (after ?? before)!
  await recordAudit(tx, {
    actor,
    action,
    target: `${object.className}/${object.objectId}`,
    before,
    after,
  })
}

/** A row of the objects table for `object`. */
export const rowOf = ({ acl, ...row }: NewObject) => ({ ...row, ...permsOf(acl) })

const sameObject = (a: WireObject, b: WireObject) =>
  a.updatedAt === b.updatedAt &&
  isDeepStrictEqual(a.data, b.data) &&
  isDeepStrictEqual(a.acl, b.acl)

const idTaken = () =>
  new HttpError(409, 'object_id_taken', 'An object of this class already has this objectId.')

const nameTaken = (name: unknown) =>
  new HttpError(
    409,
    'role_name_taken',
    `A role named "${String(name).slice(0, 128)}" already exists: role names are unique. Add members to it, or pick another name.`,
  )
