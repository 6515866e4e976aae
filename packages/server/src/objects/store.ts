import type { SQL } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import type { Changer, Viewer } from './access.ts'
import { withPublicRead, type Acl } from './acl.ts'
import type { ObjectChange } from './changes.ts'
import type { ClassPermissionsCache, Operation } from './class-permissions.ts'
import { noClassRules, type ClassRules } from './class-rules.ts'
import type { Condition } from './condition.ts'
import { AccessDecisions, creatorOf, type ChangeDecision } from './decisions.ts'
import { Fetching } from './fetching.ts'
import { assertKeptChange } from './kept-fields.ts'
import type { AskedFields } from './protected-queries.ts'
import type { FieldIndexes } from './field-indexes.ts'
import { noHooks, type ObjectHooks } from './hooks.ts'
import { ImportPaths } from './import-paths.ts'
import { LiveMatching } from './live-matching.ts'
import type {
  Change,
  NewObject,
  ObjectFilter,
  ObjectQuery,
  ObjectScan,
  ObjectStore,
  ObjectTarget,
  ObjectWrites,
} from './object-store.ts'
import type { RelationChange } from './relations.ts'
import type { WireObject } from './rows.ts'
import type { SignedOutWrites } from './signed-out-writes.ts'
import { Triggers } from './triggers.ts'
import { UnitOfWork } from './unit-of-work.ts'
import type { ViewerRoles } from './viewer-roles.ts'
import type { Document } from './wire.ts'
import type { CreateOutcome, CreateRequest } from './writer.ts'

// The object store (object-store.ts), as the pipelines of its reads and writes. Each step has
// its module: access decisions (decisions.ts: who the caller is, what they may create, change,
// delete and see), triggers (triggers.ts: the site's before/after hooks and the replanning of a
// change), the unit of work (unit-of-work.ts: the transaction, and what is published once it
// committed), fetching (fetching.ts), live matching (live-matching.ts) and the import's paths
// (import-paths.ts). A write goes: decide, `before` triggers, write in one transaction,
// publish, `after` triggers. A read goes: `beforeFind`, decide, read (the access rule and
// pointer permissions in the statement), hide protected fields, `afterFind`.

export interface ObjectStoreOptions {
  db: Database
  /** Indexes on document fields: queries note the fields they use and are planned with them. */
  fieldIndexes: FieldIndexes
  /** Tells live listeners (on every process) about committed changes. Never throws. */
  publish(changes: ObjectChange[]): Promise<void>
  /**
   * Whether anyone may listen to changes of `className` now (the change feed's `listens`): the
   * objects of a bulk write (`ObjectWrites.insertMany`) are built only then. Without it, always.
   */
  listens?: ((className: string) => boolean) | undefined
  /** Most bytes of documents one answer may carry (the batch route shares it among its parts). */
  answerMaxBytes: number
  /** The roles of each viewer, for the access rule; told when a role is written. */
  roles: ViewerRoles
  /** Who may write some classes at all, and their integer fields (class-rules.ts). */
  classRules?: ClassRules | undefined
  /** The site's triggers, run around every write and read of the classes they name. */
  hooks?: ObjectHooks | undefined
  /** Class-level permissions (class-permissions.ts); without them every class is open. */
  permissions?: ClassPermissionsCache | undefined
  /** The limit on writes by clients that are not signed in; without it they are not counted. */
  signedOutWrites?: SignedOutWrites | undefined
}

/** The object store of a database; the services build it once. */
export function openObjectStore(options: ObjectStoreOptions): ObjectStore {
  return new Store(options)
}

class Store implements ObjectStore {
  readonly #access: AccessDecisions
  readonly #triggers: Triggers
  readonly #fetching: Fetching
  readonly #live: LiveMatching
  readonly #work: UnitOfWork
  readonly #imports: ImportPaths
  readonly #rules: ClassRules

  constructor(options: ObjectStoreOptions) {
    const { db, permissions } = options
    const rules = (this.#rules = options.classRules ?? noClassRules)
    const listens = options.listens ?? (() => true)
    this.#access = new AccessDecisions(
      db,
      options.roles,
      rules,
      permissions,
      options.signedOutWrites,
    )
    const triggers = (this.#triggers = new Triggers(options.hooks ?? noHooks))
    this.#fetching = new Fetching({ ...options, access: this.#access, rules, permissions })
    this.#live = new LiveMatching(db, this.#access, rules, permissions)
    this.#work = new UnitOfWork({
      db,
      publish: options.publish,
      wanted: (className) => listens(className) || triggers.wantsSaved(className),
      roles: options.roles,
      permissions,
    })
    this.#imports = new ImportPaths(db, rules, triggers, this.#work)
  }

  // The read pipeline.

  get(className: string, objectId: string, viewer: Changer | undefined) {
    if (!this.#triggers.findsHooked(className))
      return this.#fetching.get(className, objectId, viewer)
    return this.#triggers.get(className, objectId, viewer, (query) =>
      this.#fetching.query(viewer, className, query),
    )
  }

  query(changer: Changer | undefined, className: string, query: ObjectQuery) {
    if (!this.#triggers.findsHooked(className))
      return this.#fetching.query(changer, className, query)
    return this.#triggers.query(changer, className, query, (asked) =>
      this.#fetching.query(changer, className, asked),
    )
  }

  readable(keys: { className: string; objectId: string }[], viewerId: Changer | undefined) {
    return this.#fetching.readable(keys, viewerId)
  }

  scan(changer: Changer, className: string, where: Condition | undefined): ObjectScan {
    // The `where` is translated (and so checked) before anything is read.
    return this.#fetching.scan(changer, className, this.#live.condition(className, where))
  }

  readAsServer(keys: { className: string; objectId: string }) {
    return this.#fetching.readAsServer(keys)
  }

  declaredFields(className: string) {
    return this.#fetching.declaredFields(className)
  }

  aggregate(className: string, pipeline: unknown) {
    return this.#fetching.aggregate(className, pipeline)
  }

  distinct(className: string, field: string, where: Condition | undefined) {
    return this.#fetching.distinct(className, field, where)
  }

  countByClass() {
    return this.#fetching.countByClass()
  }

  owners(className: string, ids: string[]) {
    return this.#fetching.owners(className, ids)
  }

  allowed(className: string, operation: Operation, viewer: Viewer) {
    return this.#access.allowed(className, operation, viewer)
  }

  assertWritableClass(className: string) {
    this.#access.assertWritableClass(className)
  }

  async assertQueryable(changer: Changer | undefined, className: string, asked: AskedFields) {
    await this.#access.assertQueryable(className, await this.#access.viewer(changer), asked)
  }

  visibleTo(object: WireObject, viewerId: Changer | undefined) {
    return this.#access.visibleTo(object, viewerId)
  }

  // Live matching.

  liveCondition(className: string, where: Condition | undefined): SQL | undefined {
    return this.#live.condition(className, where)
  }

  matches(object: WireObject, filters: readonly ObjectFilter[]) {
    return this.#live.matches(object, filters)
  }

  // The write pipeline.

  async create(request: CreateRequest): Promise<CreateOutcome> {
    const actor = creatorOf(request)
    // A role's name is unique: in a group, one name in use would fail the others' statement.
    if (request.className === '_Role') return { created: await this.createRelated(request, []) }
    await this.#access.mayCreate(request, actor)
    const context = this.#triggers.saveContext(request.className)
    if (!context) return this.#work.create(request)
    const saved = await this.#work.create(
      await this.#triggers.beforeCreate(request, actor, context),
    )
    if ('created' in saved) await this.#triggers.afterSave(saved.created, null, actor, context)
    return saved
  }

  async createRelated(request: CreateRequest, relations: RelationChange[]): Promise<WireObject> {
    const actor = creatorOf(request)
    await this.#access.mayCreate(request, actor)
    const context = this.#triggers.context()
    const made = await this.#work.createRelated(
      await this.#triggers.beforeCreate(request, actor, context),
      relations,
    )
    await this.#triggers.afterSave(made, null, actor, context)
    return made
  }

  async modify(input: ObjectTarget, modify: (current: WireObject) => Change) {
    const kept = this.#rules.keptFields(input.className)
    await assertKeptChange(
      kept,
      () => this.#fetching.get(input.className, input.objectId, input.userId),
      modify,
    )
    const decision = await this.#access.mayChange(input, 'update')
    const context = this.#triggers.saveContext(input.className)
    // The change is planned by its `beforeSave` (if any) and written in one transaction, again
    // while the object moved meanwhile.
    const changed = await this.#triggers.replanning(
      input,
      context,
      () => this.#current(input, decision),
      modify,
      (planned) =>
        this.#work.change(input, decision.writable, planned, modify, decision.fieldsAdded, kept),
    )
    if (!changed) throw await this.#refusal(input)
    if (context)
      await this.#triggers.afterSave(changed.after, changed.before, input.userId, context)
    return changed
  }

  update(input: ObjectTarget & { data?: Document; acl?: Acl; publicRead?: boolean }) {
    return this.modify(input, (current) => {
      const acl = input.acl ?? current.acl
      return {
        ...(input.data ? { data: { ...current.data, ...input.data } } : {}),
        ...(input.acl === undefined && input.publicRead === undefined
          ? {}
          : { acl: input.publicRead === undefined ? acl : withPublicRead(acl, input.publicRead) }),
      }
    }).then((changed) => changed.after)
  }

  async delete(input: ObjectTarget): Promise<WireObject> {
    const decision = await this.#access.mayChange(input, 'delete')
    const context = this.#triggers.context()
    const actor = input.userId
    await this.#triggers.beforeDelete(
      input.className,
      () => this.#current(input, decision),
      actor,
      context,
    )
    const before = await this.#work.delete(input, decision.writable())
    if (!before) throw await this.#refusal(input)
    await this.#triggers.afterDelete(before, actor, context)
    return before
  }

  async insertAbsent(rows: NewObject[]): Promise<WireObject[]> {
    const changes = await this.#work.insertAbsent(rows)
    await this.#triggers.afterChanges(changes)
    return changes.map((change) => change.after!)
  }

  async transaction<T>(work: (tx: Database, writes: ObjectWrites) => Promise<T>): Promise<T> {
    const { result, changes } = await this.#work.committed(work)
    await this.#triggers.afterChanges(changes)
    return result
  }

  // The import's paths.

  importRows(rows: NewObject[], tx?: Database, options?: { triggers?: boolean }) {
    return this.#imports.rows(rows, tx, options)
  }

  importRelations(
    rows: readonly { className: string; field: string; owningId: string; relatedId: string }[],
    tx?: Database,
  ) {
    return this.#imports.relations(rows, tx)
  }

  /** The object a change may touch as it is now, or the refusal. */
  async #current(input: ObjectTarget, decision: ChangeDecision): Promise<WireObject> {
    const current = await this.#fetching.current(decision.writable())
    if (!current) throw await this.#refusal(input)
    return current
  }

  /** 404 when the caller cannot read the object, 403 when they read it but may not change it. */
  #refusal(input: ObjectTarget) {
    return this.#access.refusal(input.userId, () =>
      this.#fetching.get(input.className, input.objectId, input.userId),
    )
  }
}
