import { and, asc, count, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm'
import { rowsOf, batchConcurrency, queryRows, textArray, type Database } from '../db/client.ts'
import { copyRows } from '../db/bulk-copy.ts'
import { createCoalescer } from '../db/coalesce.ts'
import { objects, users } from '../db/schema.ts'
import { HttpError, notFound, unauthorized } from '../errors.ts'
import { answerBudget } from '../http/answer-budget.ts'
import {
  ANY_OWNER,
  byId,
  changeableBy,
  readableBy,
  unreadable,
  unwritable,
  visibleTo,
  type Changer,
  type Viewer,
} from './access.ts'
import type { ViewerRoles } from './viewer-roles.ts'
import { permsOf, withPublicRead, type Acl } from './acl.ts'
import type { ObjectChange } from './changes.ts'
import { noClassRules, type ClassRules } from './class-rules.ts'
import { aggregateStatement, distinctStatement } from './aggregate.ts'
import {
  checkOperation,
  hiddenFields,
  pointerCondition,
  pointsAt,
  SCHEMA_CLASS,
  type ClassPermissionsCache,
  type Operation,
  type PointerConstraint,
} from './class-permissions.ts'
import { integerCondition } from './integer-fields.ts'
import { arrayCondition } from './array-fields.ts'
import type { FieldIndexes } from './field-indexes.ts'
import { CompiledPages, queryObjects } from './pages.ts'
import type { Condition } from './condition.ts'
import { translateOrder, translateWhere } from './query.ts'
import { packedRows, toWire, unpack, type PackedRow, type WireObject } from './rows.ts'
import type { Document } from './wire.ts'
import { writeGroup, type CreateOutcome, type CreateRequest } from './writer.ts'
import {
  dropRelations,
  insertRelations,
  markRelations,
  writeRelations,
  type RelationChange,
} from './relations.ts'
import { randomBytes } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import { noHooks, type HookActor, type HookContext, type ObjectHooks } from './hooks.ts'
import { parseWhere } from './condition.ts'
import { recordAudit } from '../admin/audit.ts'
import type { SignedOutWrites } from './signed-out-writes.ts'

// The object store: the only module that reads or writes the `objects` table. Every read and
// write takes the access rule (access.ts) into its own statement. Each committed change is told
// to live listeners through `publish`.
//
// A client that is not signed in (`userId` / actor undefined) is judged as `*`: it changes and
// deletes what the ACLs and the class's permissions let everyone change, as in Parse. Creating
// is Portico's one exception: it needs a sign-in unless the class's permissions name `*` for
// `create`, or the class has none and the request says that is open (Parse's default, which the
// compatibility mount asks for). Each signed-out
// write is counted against its client's limit (signed-out-writes.ts) once its checks passed and
// before anything is written.

/** Owner of the objects made by clients that are not signed in: a user who never signs in. */
export const VISITOR_OWNER = {
  id: 'portico-visitor',
  address: '0x0000000000000000000000000000000000000003',
}

/** Who a create is made as: undefined for a client that is not signed in. */
const creatorOf = (request: CreateRequest): Changer | undefined =>
  request.signedOut ? undefined : (request.writer ?? request.ownerId)

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

/** A change or delete of one object; `client` is the caller's address, counted when signed out. */
export interface ObjectTarget {
  className: string
  objectId: string
  userId: Changer | undefined
  client?: string | undefined
}

/** A query as the routes read it from their wire format. */
export interface ObjectQuery {
  /** The `where`, parsed (condition.ts); undefined for every object. */
  where?: Condition | undefined
  /**
   * The text `where` was read from, when the caller has it: a page asked again with the same
   * text (and class, viewer, order and bounds) runs the statement compiled the first time.
   * Without it `where` as JSON is that key.
   */
  whereText?: string | undefined
  /** `-score,name`: fields, each descending with a `-`. */
  order?: string | undefined
  limit: number
  skip: number
  /** Also count every object the query selects. */
  count?: boolean
  /**
   * Count at most this many and one more: a count past it answers `countLimit + 1` without
   * reading further. Without it the count is exact.
   */
  countLimit?: number | undefined
}

/** An object written by the server as it is (ids, owner, ACL and times given). */
export interface NewObject {
  className: string
  id: string
  ownerId: string
  acl: Acl
  data: Document
  createdAt: Date
  updatedAt: Date
}

/** The objects of a class a `scan` selects, read in the order of their ids. */
export interface ObjectScan {
  /** The top-level document fields they have, sorted. */
  fieldNames(): Promise<string[]>
  /** Them, a page at a time: memory stays flat however many there are. */
  pages(): AsyncGenerator<WireObject[]>
}

/** What a live subscription selects: `matches` tells whether an object is among it. */
export interface ObjectFilter {
  className: string
  viewerId: string | undefined
  /** The translated `where`; undefined selects every object. */
  condition: SQL | undefined
}

interface FetchKey {
  className: string
  objectId: string
  /** The viewer's list (access.ts); undefined for a visitor. */
  viewer: readonly string[] | undefined
}

const SCAN_PAGE = 500
const noFields: ReadonlySet<string> = new Set()

export class ObjectStore {
  readonly #db: Database
  readonly #fieldIndexes: FieldIndexes
  readonly #publish: (changes: ObjectChange[]) => Promise<void>
  readonly #listens: (className: string) => boolean
  readonly #answerMaxBytes: number
  readonly #fetch: (key: FetchKey) => Promise<WireObject | null>
  readonly #create: (request: CreateRequest) => Promise<CreateOutcome>
  readonly #compiledPages = new CompiledPages()
  readonly #roles: ViewerRoles
  readonly #rules: ClassRules
  readonly #hooks: ObjectHooks
  readonly #permissions: ClassPermissionsCache | undefined
  readonly #signedOutWrites: SignedOutWrites | undefined

  constructor(options: ObjectStoreOptions) {
    const { db, publish } = options
    this.#db = db
    this.#fieldIndexes = options.fieldIndexes
    this.#publish = publish
    this.#listens = options.listens ?? (() => true)
    this.#answerMaxBytes = options.answerMaxBytes
    this.#roles = options.roles
    this.#rules = options.classRules ?? noClassRules
    this.#hooks = options.hooks ?? noHooks
    this.#permissions = options.permissions
    this.#signedOutWrites = options.signedOutWrites
    // Fetches that arrive together share one statement (as session lookups do): on the embedded
    // database a statement's fixed cost was most of a fetch.
    this.#fetch = createCoalescer(
      (keys: FetchKey[]) => fetchObjects(db, keys),
      200,
      batchConcurrency(db),
    )
    // Creates are committed in groups (writer.ts).
    this.#create = createCoalescer(
      (requests: CreateRequest[]) => writeGroup(db, publish, requests),
      100,
      batchConcurrency(db),
    )
  }

  /** One object, if `viewer` may read it (through the class's find triggers, if any). */
  get(
    className: string,
    objectId: string,
    viewer: Changer | undefined,
  ): Promise<WireObject | null> {
    if (this.#hooks.handles('beforeFind', className) || this.#hooks.handles('afterFind', className))
      return this.#hookedGet(className, objectId, viewer)
    return this.#get(className, objectId, viewer)
  }

  async #get(className: string, objectId: string, changer: Changer | undefined) {
    if (changer === ANY_OWNER) return this.readAsServer({ className, objectId })
    const viewer = await this.#viewer(changer)
    const constraint = await this.allowed(className, 'get', viewer)
    const found = await this.#fetch({
      className,
      objectId,
      viewer: viewer as readonly string[] | undefined,
    })
    if (!found || !meets(found, constraint)) return null
    return this.#visible(found, viewer)
  }

  /**
   * Whether `viewer` may do `operation` on `className` by its class-level permissions
   * (class-permissions.ts): throws the refusal, or gives the pointer constraint the objects must
   * also meet (undefined: none).
   */
  async allowed(
    className: string,
    operation: Operation,
    viewer: Viewer,
  ): Promise<PointerConstraint | undefined> {
    if (!this.#permissions || viewer === ANY_OWNER) return undefined
    return checkOperation(await this.#permissions.of(className), className, operation, viewer)
  }

  /** `object` without the fields its class's `protectedFields` hide from `viewer`. */
  async #visible(object: WireObject, viewer: Viewer): Promise<WireObject> {
    if (!this.#permissions || viewer === ANY_OWNER) return object
    const hidden = hiddenFields(await this.#permissions.of(object.className), viewer, object.data)
    if (hidden.length === 0) return object
    const data = { ...object.data }
    for (const field of hidden) delete data[field]
    return { ...object, data }
  }

  /** `object` as `viewerId` may see it (without its class's protected fields). */
  async visibleTo(object: WireObject, viewerId: Changer | undefined): Promise<WireObject> {
    // Most classes hide nothing: the viewer's roles are looked up only for those that do.
    if (!(await this.#permissions?.of(object.className))?.protectedFields) return object
    return this.#visible(object, await this.#viewer(viewerId))
  }

  /** A get as Parse runs it with find triggers: a query for one id that the triggers may change. */
  async #hookedGet(className: string, objectId: string, viewer: Changer | undefined) {
    let draft = { where: { objectId } as Record<string, unknown>, limit: 1, skip: 0 }
    if (this.#hooks.handles('beforeFind', className))
      draft = await this.#hooks.beforeFind(className, draft, viewer, true)
    const { results } = await this.#query(viewer, className, {
      where: parseWhere(draft.where),
      whereText: JSON.stringify(draft.where),
      limit: 1,
      skip: 0,
    })
    const found = this.#hooks.handles('afterFind', className)
      ? await this.#hooks.afterFind(className, results, viewer, true)
      : results
    return found[0] ?? null
  }

  /** The list a caller's access is compared with (access.ts): their id and roles, with `*`. */
  async #viewer(changer: Changer | undefined): Promise<Viewer> {
    if (changer === ANY_OWNER || changer === undefined) return changer
    return this.#roles.listOf(changer)
  }

  /** Every process forgets the roles it remembered when one of these writes touched a role. */
  async #rolesWritten(classNames: Iterable<string>): Promise<void> {
    let roles = false
    let schemas = false
    for (const className of classNames) {
      roles ||= className === '_Role'
      schemas ||= className === SCHEMA_CLASS
    }
    if (roles) await this.#roles.changed()
    if (schemas) await this.#permissions?.changed()
  }

  /** The objects among `keys` (any classes) that `viewerId` may read, by `className/objectId`. */
  async readable(
    keys: { className: string; objectId: string }[],
    viewerId: Changer | undefined,
  ): Promise<Map<string, WireObject>> {
    const found = new Map<string, WireObject>()
    if (keys.length === 0) return found
    const viewer = await this.#viewer(viewerId)
    // A class whose permissions refuse the viewer a get is left out (its pointers stay bare).
    const constraints = new Map<string, PointerConstraint | undefined | false>()
    for (const className of new Set(keys.map((k) => k.className)))
      constraints.set(
        className,
        await this.allowed(className, 'get', viewer).catch((error: unknown) => {
          if (error instanceof HttpError) return false as const
          throw error
        }),
      )
    keys = keys.filter((k) => constraints.get(k.className) !== false)
    if (keys.length === 0) return found
    const rows = await this.#db
      .select()
      .from(objects)
      .where(
        or(...keys.map((k) => and(readableBy(k.className, viewer), eq(objects.id, k.objectId)))),
      )
    for (const row of rows) {
      const object = toWire(row)
      if (!meets(object, constraints.get(row.className) || undefined)) continue
      found.set(`${row.className}/${row.id}`, await this.#visible(object, viewer))
    }
    return found
  }

  /**
   * The fields `className`'s schema declares, remembered with its permissions (forgotten in every
   * process when a schema is written).
   */
  async declaredFields(className: string): Promise<Record<string, unknown>> {
    if (this.#permissions) return this.#permissions.declaredFields(className)
    const row = await this.readAsServer({ className: SCHEMA_CLASS, objectId: className })
    const fields = row?.data.fields
    return fields !== null && typeof fields === 'object' && !Array.isArray(fields)
      ? (fields as Record<string, unknown>)
      : {}
  }

  /** An object whatever its access rule, for the server's own use (never answered as such). */
  async readAsServer(keys: { className: string; objectId: string }): Promise<WireObject | null> {
    const [row] = await this.#db
      .select()
      .from(objects)
      .where(byId(keys.className, keys.objectId))
      .limit(1)
    return row ? toWire(row) : null
  }

  /**
   * A page of the objects of `className` that `viewer` may read and `query` selects (with their
   * count when asked), bounded by the answer's byte budget. The same for `/api`, the
   * compatibility mount and the console, each of which keeps its own wire format.
   */
  async query(
    changer: Changer | undefined,
    className: string,
    query: ObjectQuery,
  ): Promise<{ results: WireObject[]; count?: number }> {
    const hooks = this.#hooks
    if (!hooks.handles('beforeFind', className) && !hooks.handles('afterFind', className))
      return this.#query(changer, className, query)
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
    const found = await this.#query(changer, className, asked)
    if (!hooks.handles('afterFind', className)) return found
    return {
      ...found,
      results: await hooks.afterFind(className, found.results, changer, false),
    }
  }

  async #query(
    changer: Changer | undefined,
    className: string,
    query: ObjectQuery,
  ): Promise<{ results: WireObject[]; count?: number }> {
    const { order } = query
    const viewer = await this.#viewer(changer)
    // As Parse names them: a count alone is `count`, a query for one id alone is `get`.
    const countOnly = query.count === true && query.limit === 0
    const constraint = countOnly
      ? undefined
      : await this.allowed(className, isGet(query.where) ? 'get' : 'find', viewer)
    const counted = query.count ? await this.allowed(className, 'count', viewer) : undefined
    const pointers = constraint ?? counted
    const integers = this.#rules.integerFields(className)
    const arrays = (await this.#permissions?.arrayFields(className)) ?? noFields
    const where = arrayCondition(integerCondition(query.where, integers), arrays)
    const source = query.whereText ?? (query.where ? JSON.stringify(query.where) : undefined)
    const found = await queryObjects(
      this.#db,
      {
        className,
        viewer,
        where: pointers
          ? and(translateWhere(where), pointerCondition(pointers))
          : translateWhere(where),
        orderBy: translateOrder(order, where, integers),
        ...this.#fieldIndexes.planQuery(className, where, order, integers),
        limit: query.limit,
        skip: query.skip,
        count: query.count ?? false,
        countLimit: query.countLimit,
        maxBytes: answerBudget(this.#answerMaxBytes),
        source: {
          // The pointer constraint is part of the statement: it is part of its key.
          where: pointers ? `${source ?? ''}\u0000${pointers.fields.join(',')}` : source,
          order,
        },
      },
      this.#compiledPages,
    )
    if (!this.#permissions || viewer === ANY_OWNER) return found
    return {
      ...found,
      results: await Promise.all(found.results.map((object) => this.#visible(object, viewer))),
    }
  }

  /**
   * The objects of `className` that `viewer` may read and `where` selects, for an export. The
   * `where` is checked here, before anything is read.
   */
  scan(changer: Changer, className: string, where: Condition | undefined): ObjectScan {
    const db = this.#db
    const translated = this.liveCondition(className, where)
    const resolved: Promise<{ viewer: Viewer; condition: SQL | undefined }> = this.#viewer(
      changer,
    ).then(async (viewer) => {
      const constraint = await this.allowed(className, 'find', viewer)
      return {
        viewer,
        condition: constraint ? and(translated, pointerCondition(constraint)) : translated,
      }
    })
    const visible = (object: WireObject, viewer: Viewer) => this.#visible(object, viewer)
    return {
      async fieldNames() {
        const { viewer, condition } = await resolved
        const keys = await db.execute(
          sql`select distinct jsonb_object_keys(${objects.data}) as key from ${objects}
              where ${and(readableBy(className, viewer), condition)} order by 1`,
        )
        return rowsOf<{ key: string }>(keys).map((row) => row.key)
      },
      async *pages() {
        const { viewer, condition } = await resolved
        let after = ''
        for (;;) {
          const rows = await db
            .select()
            .from(objects)
            .where(and(readableBy(className, viewer), gt(objects.id, after), condition))
            .orderBy(asc(objects.id))
            .limit(SCAN_PAGE)
          if (rows.length === 0) return
          yield await Promise.all(rows.map((row) => visible(toWire(row), viewer)))
          after = rows.at(-1)!.id
        }
      },
    }
  }

  /**
   * `where` on `className` as SQL, for a live subscription's filter (see `matches`): the same
   * translation as a query's.
   */
  liveCondition(className: string, where: Condition | undefined): SQL | undefined {
    const integers = integerCondition(where, this.#rules.integerFields(className))
    return translateWhere(
      arrayCondition(integers, this.#permissions?.arrayFieldsNow(className) ?? noFields),
    )
  }

  /**
   * Runs an aggregate `pipeline` (aggregate.ts) on every object of `className`: the master key's
   * alone, as in Parse, so no access rule applies; its caller checks the key.
   */
  async aggregate(className: string, pipeline: unknown): Promise<unknown[]> {
    const rows = await queryRows<{ doc: string }>(this.#db, aggregateStatement(className, pipeline))
    return rows.map((row) => JSON.parse(row.doc) as unknown)
  }

  /** The distinct values of `field` among the objects of `className` `where` selects (master key). */
  async distinct(className: string, field: string, where: unknown): Promise<unknown[]> {
    const rows = await queryRows<{ doc: string }>(
      this.#db,
      distinctStatement(className, field, where),
    )
    return rows.map((row) => JSON.parse(row.doc) as unknown)
  }

  /** How many objects each class holds, by class name. */
  countByClass(): Promise<{ className: string; count: number }[]> {
    return this.#db
      .select({ className: objects.className, count: count() })
      .from(objects)
      .groupBy(objects.className)
      .orderBy(objects.className)
  }

  /**
   * Whether each filter's viewer may read `object` and its condition holds for it, decided by
   * the database itself: the object is put in a one-row stand-in for the table and the very
   * conditions that queries use (the query translation and the access rule) are evaluated on
   * it. So a live query matches exactly what a query would find, `$regex` included.
   */
  async matches(object: WireObject, filters: readonly ObjectFilter[]): Promise<boolean[]> {
    const perms = permsOf(object.acl)
    const viewers = await Promise.all(filters.map((s) => this.#viewer(s.viewerId)))
    // A subscriber the class's permissions refuse a find matches nothing.
    const constraints = await Promise.all(
      filters.map((s, i) =>
        this.allowed(s.className, 'find', viewers[i]).catch((error: unknown) => {
          if (error instanceof HttpError) return false as const
          throw error
        }),
      ),
    )
    const columns = filters.map((s, i) => {
      const constraint = constraints[i]
      const allowed =
        constraint === false ? sql`false` : constraint ? pointerCondition(constraint) : undefined
      return sql`coalesce(${and(readableBy(s.className, viewers[i]), s.condition, allowed)}, false) as ${sql.identifier(`m${i}`)}`
    })
    const result = await this.#db.execute(sql`
      with ${objects} (class_name, id, owner_id, read_perm, write_perm, data, created_at,
        updated_at) as (
        values (${object.className}::text, ${object.objectId}::text, ${object.owner}::text,
          ${textArray(perms.readPerm)}, ${textArray(perms.writePerm)},
          ${JSON.stringify(object.data)}::jsonb,
          ${object.createdAt}::timestamptz, ${object.updatedAt}::timestamptz))
      select ${sql.join(columns, sql`, `)} from ${objects}`)
    const [row] = rowsOf<Record<string, boolean>>(result)
    return filters.map((_s, i) => row?.[`m${i}`] === true)
  }

  /** Creates an object through the group-commit writer (writer.ts), with its save triggers. */
  async create(request: CreateRequest): Promise<CreateOutcome> {
    const { className } = request
    const actor = creatorOf(request)
    // A role's name is unique: in a group, one name in use would fail the others' statement.
    if (className === '_Role') return { created: await this.createRelated(request, []) }
    await this.#mayCreate(request, actor)
    const hooks = this.#hooks
    if (!hooks.handles('beforeSave', className) && !hooks.handles('afterSave', className))
      return this.#create(request)
    const context = hooks.context()
    const saved = await this.#create(await this.#beforeSave(request, actor, context))
    if ('created' in saved) await this.#afterSave(saved.created, null, actor, context)
    return saved
  }

  /** Throws unless the class's rules and permissions let `actor` create `request` (and add its fields). */
  async #mayCreate(request: CreateRequest, actor: Changer | undefined): Promise<void> {
    this.#rules.assertWritable(request.className, actor)
    if (actor === undefined) await this.#mayCreateSignedOut(request)
    if (this.#permissions && actor !== ANY_OWNER) {
      const viewer = await this.#viewer(actor)
      await this.allowed(request.className, 'create', viewer)
      const refusal = await this.#addFieldRefusal(request.className, viewer)
      if (refusal)
        await this.#assertFieldsHeld(
          this.#db,
          request.className,
          Object.keys(request.data),
          refusal,
        )
    }
    if (actor !== undefined) return
    await this.#signedOutWrites?.charge(request.client)
    // Made here, each time (signed-out creates are rare): its row may have been deleted since.
    await this.#db.insert(users).values(VISITOR_OWNER).onConflictDoNothing()
  }

  /**
   * Throws 401 unless `className`'s permissions let everyone create, or it has none and the
   * request takes that as open (see the top of this file).
   */
  async #mayCreateSignedOut({ className, openWithoutPermissions }: CreateRequest): Promise<void> {
    const permissions = await this.#permissions?.of(className)
    if (openWithoutPermissions && this.#permissions && !permissions) return
    const rule = permissions?.operations.create
    if (!rule?.who.has('*'))
      throw unauthorized(
        `Sign in to create ${className} objects: only a class whose permissions let everyone (*) create takes them from clients that are not signed in.`,
      )
  }

  /**
   * The refusal `viewer` meets when adding a field to `className` (the `addField` permission),
   * with the fields the class declares; undefined when they may add any.
   */
  async #addFieldRefusal(
    className: string,
    viewer: Viewer,
  ): Promise<{ error: HttpError; declared: Record<string, unknown> } | undefined> {
    if (!this.#permissions) return undefined
    const error = await this.allowed(className, 'addField', viewer).then(
      () => undefined,
      (refused: unknown) => {
        if (refused instanceof HttpError) return refused
        throw refused
      },
    )
    return error && { error, declared: await this.#permissions.declaredFields(className) }
  }

  /**
   * Throws `refusal` unless `className` has each of `fields` already: declared, or held by an
   * object. `db` is the caller's transaction when it is in one.
   */
  async #assertFieldsHeld(
    db: Database,
    className: string,
    fields: string[],
    refusal: { error: HttpError; declared: Record<string, unknown> },
  ): Promise<void> {
    const asked = fields.filter((field) => !(field in refusal.declared))
    if (asked.length === 0) return
    const missing = await queryRows<{ field: string }>(
      db,
      sql`select f.field from unnest(${textArray(asked)}) as f(field) where not exists (
        select 1 from ${objects} where ${objects.className} = ${className}
          and ${objects.data} ? f.field)`,
    )
    if (missing.length) throw refusal.error
  }

  /** The request as the class's `beforeSave` leaves it (unchanged without one). */
  async #beforeSave(
    request: CreateRequest,
    actor: HookActor,
    context: HookContext,
  ): Promise<CreateRequest> {
    if (!this.#hooks.handles('beforeSave', request.className)) return request
    const saved = await this.#hooks.beforeSave(
      { className: request.className, data: request.data, acl: request.acl },
      null,
      actor,
      context,
    )
    return { ...request, data: saved.data, acl: saved.acl }
  }

  async #afterSave(
    object: WireObject,
    original: WireObject | null,
    actor: HookActor,
    context: HookContext,
  ): Promise<void> {
    if (this.#hooks.handles('afterSave', object.className))
      await this.#hooks.afterSave(object, original, actor, context)
  }

  /** The `after` triggers of changes the server made itself (synced rows, sign-ins, wallets). */
  async #afterChanges(changes: readonly ObjectChange[]): Promise<void> {
    for (const change of changes) {
      if (change.kind === 'delete') {
        if (change.before && this.#hooks.handles('afterDelete', change.className))
          await this.#hooks.afterDelete(change.before, ANY_OWNER, this.#hooks.context())
      } else if (change.after && this.#hooks.handles('afterSave', change.className))
        await this.#afterSave(change.after, change.before, ANY_OWNER, this.#hooks.context())
    }
  }

  /**
   * Changes an object in one transaction: the row is locked, `modify` computes the new document
   * and/or ACL (or owner) from the current object, and the result is written and told to live
   * listeners. Refused (404 or 403, see `refusal`) unless its ACL lets `userId` write it
   * (undefined: a client that is not signed in, judged as `*`).
   */
  async modify(
    input: ObjectTarget,
    modify: (current: WireObject) => Change,
  ): Promise<{ before: WireObject; after: WireObject }> {
    const { className, objectId, userId } = input
    this.#rules.assertWritable(className, userId)
    const viewer = await this.#viewer(userId)
    const constraint = await this.allowed(className, 'update', viewer)
    const addFieldRefusal = await this.#addFieldRefusal(className, viewer)
    if (userId === undefined) await this.#signedOutWrites?.charge(input.client)
    const writable = () =>
      constraint
        ? and(changeableBy(className, objectId, viewer), pointerCondition(constraint))!
        : changeableBy(className, objectId, viewer)
    const hooks = this.#hooks
    const hooked = hooks.handles('beforeSave', className)
    const context = hooked || hooks.handles('afterSave', className) ? hooks.context() : undefined
    for (let attempt = 1; ; attempt++) {
      // A `beforeSave` runs outside the transaction (it may read and write objects itself, and
      // the embedded database has one connection): the change is computed from the object as
      // read, and written only if the object is still as it was read, else computed again.
      const planned = hooked ? await this.#plannedChange(input, writable(), modify, context!) : null
      const changed = await this.#db.transaction(async (tx) => {
        const [row] = await tx.select().from(objects).where(writable()).for('update')
        if (!row) return null
        const before = toWire(row)
        if (planned && !sameObject(planned.before, before)) return 'moved' as const
        const next = planned?.next ?? modify(before)
        if (next.data && addFieldRefusal)
          await this.#assertFieldsHeld(
            tx,
            className,
            Object.keys(next.data).filter((field) => !(field in before.data)),
            addFieldRefusal,
          )
        const relations = next.relations ?? []
        const data = relations.length
          ? markRelations(next.data ?? before.data, relations)
          : next.data
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
        return { before, after: toWire(updated!) }
      })
      if (changed === 'moved' && attempt < MAX_REPLANS) continue
      if (changed === 'moved')
        throw new HttpError(
          409,
          'object_busy',
          'The object kept changing while its beforeSave trigger ran: try again.',
        )
      if (!changed) throw await this.#refusal(className, objectId, userId)
      await this.#rolesWritten([className])
      await this.#publish([{ kind: 'update', className, objectId, ...changed }])
      if (context) await this.#afterSave(changed.after, changed.before, userId, context)
      return changed
    }
  }

  /** The change `modify` makes to the object as it is now, as its `beforeSave` leaves it. */
  async #plannedChange(
    input: { className: string; objectId: string; userId: Changer | undefined },
    writable: SQL,
    modify: (current: WireObject) => Change,
    context: HookContext,
  ): Promise<{ before: WireObject; next: Change }> {
    const [row] = await this.#db.select().from(objects).where(writable)
    if (!row) throw await this.#refusal(input.className, input.objectId, input.userId)
    const before = toWire(row)
    const next = modify(before)
    const saved = await this.#hooks.beforeSave(
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

  /**
   * Merges `data` into an object (top-level fields) and/or replaces its ACL, or turns its public
   * read on or off (the rest of its ACL kept).
   */
  update(
    input: ObjectTarget & { data?: Document; acl?: Acl; publicRead?: boolean },
  ): Promise<WireObject> {
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

  /**
   * Creates an object holding relation members, in one transaction (other creates go through
   * the group-commit writer).
   */
  async createRelated(request: CreateRequest, relations: RelationChange[]): Promise<WireObject> {
    const { className } = request
    const actor = creatorOf(request)
    await this.#mayCreate(request, actor)
    const context = this.#hooks.context()
    request = await this.#beforeSave(request, actor, context)
    const made = await this.#transaction(async (tx, writes) => {
      const id = request.objectId ?? randomBytes(12).toString('base64url')
      const data = markRelations(request.data, relations)
      // The insert skips a row a unique index refuses: a role's name in use, or an id the
      // client gave (random ids do not clash).
      const [made] = await writes.insertNew(className, request, [{ id, data }], new Date())
      if (!made) throw request.objectId && className !== '_Role' ? idTaken() : nameTaken(data.name)
      await writeRelations(tx, className, id, relations)
      if (request.auditActor !== undefined)
        await recordAudit(tx, {
          actor: request.auditActor,
          action: 'object.create',
          target: `${className}/${id}`,
          after: made,
        })
      return made
    })
    await this.#afterSave(made, null, actor, context)
    return made
  }

  /** Relation members written as they are (an import's); returns how many were new. */
  importRelations(
    rows: readonly { className: string; field: string; owningId: string; relatedId: string }[],
    tx: Database = this.#db,
  ): Promise<number> {
    return insertRelations(tx, rows).finally(() =>
      this.#rolesWritten(rows.map((row) => row.className)),
    )
  }

  /**
   * Deletes an object (and the relation members it held) if `userId` may (undefined: a client
   * that is not signed in); returns it as it was.
   */
  async delete(input: ObjectTarget) {
    this.#rules.assertWritable(input.className, input.userId)
    const viewer = await this.#viewer(input.userId)
    const constraint = await this.allowed(input.className, 'delete', viewer)
    if (input.userId === undefined) await this.#signedOutWrites?.charge(input.client)
    const deletable = and(
      changeableBy(input.className, input.objectId, viewer),
      constraint && pointerCondition(constraint),
    )!
    const hooks = this.#hooks
    const context = hooks.context()
    if (hooks.handles('beforeDelete', input.className)) {
      const [row] = await this.#db.select().from(objects).where(deletable)
      if (!row) throw await this.#refusal(input.className, input.objectId, input.userId)
      await hooks.beforeDelete(toWire(row), input.userId, context)
    }
    const rows = await this.#db.transaction(async (tx) => {
      const deleted = await tx.delete(objects).where(deletable).returning()
      await dropRelations(
        tx,
        input.className,
        deleted.map((row) => row.id),
      )
      return deleted
    })
    if (!rows.length) throw await this.#refusal(input.className, input.objectId, input.userId)
    await this.#rolesWritten([input.className])
    const before = toWire(rows[0]!)
    await this.#publish([
      { kind: 'delete', className: input.className, objectId: input.objectId, before, after: null },
    ])
    if (hooks.handles('afterDelete', input.className))
      await hooks.afterDelete(before, input.userId, context)
    return before
  }

  /**
   * Writes the rows whose id is free in their class, in one statement, and tells live listeners
   * about them; returns the objects written.
   */
  async insertAbsent(rows: NewObject[]): Promise<WireObject[]> {
    const made = (
      await this.#db.insert(objects).values(rows.map(rowOf)).onConflictDoNothing().returning()
    ).map(toWire)
    await this.#rolesWritten(made.map((object) => object.className))
    const changes = made.map(created)
    await this.#publish(changes)
    await this.#afterChanges(changes)
    return made
  }

  /**
   * Writes imported rows where their id is free in their class (a second import of the same rows
   * changes nothing); returns how many were written. Nothing is told to live listeners. `tx` is
   * the import's transaction when a row is written with other tables (a user and its wallets).
   */
  async importRows(
    rows: NewObject[],
    tx: Database = this.#db,
    options: { triggers?: boolean } = {},
  ): Promise<number> {
    if (rows.length === 0) return 0
    for (const className of new Set(rows.map((row) => row.className)))
      this.#rules.assertWritable(className, undefined)
    // Triggers run outside any transaction of the import's (they read and write themselves).
    const triggers = options.triggers === true && tx === this.#db
    const context = this.#hooks.context()
    if (triggers)
      rows = await Promise.all(
        rows.map(async (row) => {
          if (!this.#hooks.handles('beforeSave', row.className)) return row
          const saved = await this.#hooks.beforeSave(
            { className: row.className, objectId: row.id, data: row.data, acl: row.acl },
            null,
            ANY_OWNER,
            context,
          )
          return { ...row, data: saved.data, acl: saved.acl }
        }),
      )
    const insert = tx.insert(objects).values(rows.map(rowOf)).onConflictDoNothing()
    if (!triggers) return (await insert.returning({ id: objects.id })).length
    const inserted = await insert.returning()
    for (const row of inserted) await this.#afterSave(toWire(row), null, ANY_OWNER, context)
    return inserted.length
  }

  /** The owner of each object of `className` among `ids` that exists, by id. */
  async owners(className: string, ids: string[]): Promise<Map<string, string>> {
    const rows = await this.#db
      .select({ id: objects.id, ownerId: objects.ownerId })
      .from(objects)
      .where(and(eq(objects.className, className), inArray(objects.id, ids)))
    return new Map(rows.map((row) => [row.id, row.ownerId]))
  }

  /**
   * Runs `work` in one transaction: the caller writes its own tables through `tx` and objects
   * through `writes`, bound to the same transaction. What the writes changed is told to live
   * listeners once it committed.
   */
  async transaction<T>(work: (tx: Database, writes: ObjectWrites) => Promise<T>): Promise<T> {
    const { result, changes } = await this.#committed(work)
    await this.#afterChanges(changes)
    return result
  }

  /** `transaction` without the `after` triggers (its caller runs its own). */
  async #transaction<T>(work: (tx: Database, writes: ObjectWrites) => Promise<T>): Promise<T> {
    return (await this.#committed(work)).result
  }

  async #committed<T>(work: (tx: Database, writes: ObjectWrites) => Promise<T>) {
    const written: WrittenChange[] = []
    const result = await this.#db.transaction((tx) => work(tx, new ObjectWrites(tx, written)))
    await this.#rolesWritten(written.map((change) => change.className))
    // Built once committed, as they are told: a listener that came during the transaction
    // still hears them, and no object is built for a class no one listens to.
    const changes: ObjectChange[] = []
    for (const change of written) {
      if (!('build' in change)) changes.push(change)
      else if (
        this.#listens(change.className) ||
        this.#hooks.handles('afterSave', change.className)
      )
        for (const built of change.build()) changes.push(built)
    }
    await this.#publish(changes)
    return { result, changes }
  }

  /**
   * Why a change was refused: 404 when the caller cannot even read the object, 403 when they can
   * read it but its ACL does not let them write it.
   */
  async #refusal(className: string, objectId: string, userId: Changer | undefined) {
    if (userId === ANY_OWNER) return notFound('No such object.')
    const readable = await this.#get(className, objectId, userId)
    return readable ? unwritable() : unreadable()
  }
}

/** A change made in a transaction, or the changes of a bulk write, built only when wanted. */
type WrittenChange = ObjectChange | { className: string; build: () => ObjectChange[] }

/** Writes of the server's own in a caller's transaction (`ObjectStore.transaction`). */
export class ObjectWrites {
  constructor(
    private readonly tx: Database,
    /** What was changed, told to live listeners after the commit. */
    private readonly changes: WrittenChange[],
  ) {}

  /**
   * Writes objects of one class and owner whose id is free (others are left alone), all as ONE
   * parameter (a JSON array) unpacked by the database: thousands of bound parameters per
   * statement cost far more than the rows themselves. Returns the objects written.
   */
  async insertNew(
    className: string,
    access: { ownerId: string; acl: Acl },
    rows: readonly { id: string; data: Document }[],
    at: Date,
  ): Promise<WireObject[]> {
    const written = this.#created(
      className,
      access,
      await this.#insert(className, access, rows, at),
      at,
    )
    for (const object of written) this.changes.push(created(object))
    return written
  }

  /**
   * `insertNew` for many rows whose objects the caller does not need (a contract sync's range):
   * returns how many were written. Their objects are built for live listeners and `afterSave`
   * triggers once committed, and only when the class has any.
   */
  async insertMany(
    className: string,
    access: { ownerId: string; acl: Acl },
    rows: readonly { id: string; data: Document }[],
    at: Date,
  ): Promise<number> {
    const written = await this.#insert(className, access, rows, at)
    if (written.length)
      this.changes.push({
        className,
        build: () => this.#created(className, access, written, at).map(created),
      })
    return written.length
  }

  /** Writes the rows whose id is free; returns those written. */
  async #insert(
    className: string,
    access: { ownerId: string; acl: Acl },
    rows: readonly { id: string; data: Document }[],
    at: Date,
  ): Promise<readonly { id: string; data: Document }[]> {
    if (rows.length === 0) return []
    const perms = permsOf(access.acl)
    if (rows.length >= BULK_COPY_ROWS) {
      const time = at.toISOString()
      const copied = await copyRows(
        this.tx,
        'objects',
        [
          'class_name',
          'id',
          'owner_id',
          'read_perm',
          'write_perm',
          'data',
          'created_at',
          'updated_at',
        ],
        rows.map((row) => [
          className,
          row.id,
          access.ownerId,
          perms.readPerm,
          perms.writePerm,
          JSON.stringify(row.data),
          time,
          time,
        ]),
        { referenced: { table: 'users', id: access.ownerId } },
      )
      if (copied) return rows
    }
    const input = JSON.stringify(rows.map((row) => ({ id: row.id, data: row.data })))
    const made = await this.tx.execute(sql`
      insert into ${objects}
        (class_name, id, owner_id, read_perm, write_perm, data, created_at, updated_at)
      select ${className}::text, r.id, ${access.ownerId}::text, ${textArray(perms.readPerm)},
        ${textArray(perms.writePerm)}, r.data, ${at.toISOString()}::timestamptz,
        ${at.toISOString()}::timestamptz
      from jsonb_to_recordset(${input}::jsonb) as r(id text, data jsonb)
      on conflict do nothing
      returning id`)
    const byKey = new Map(rows.map((row) => [row.id, row]))
    return rowsOf<{ id: string }>(made).map(({ id }) => byKey.get(id)!)
  }

  /** The objects just written, as told to live listeners after the commit. */
  #created(
    className: string,
    access: { ownerId: string; acl: Acl },
    rows: readonly { id: string; data: Document }[],
    at: Date,
  ): WireObject[] {
    const time = at.toISOString()
    const publicRead = access.acl['*']?.read === true
    return rows.map((row) => ({
      objectId: row.id,
      className,
      owner: access.ownerId,
      acl: access.acl,
      publicRead,
      createdAt: time,
      updatedAt: time,
      data: row.data,
    }))
  }

  /** Deletes the objects of `className` among `ids`; returns them as they were. */
  async remove(className: string, ids: string[]): Promise<WireObject[]> {
    const rows = await this.tx
      .delete(objects)
      .where(and(eq(objects.className, className), inArray(objects.id, ids)))
      .returning()
    await dropRelations(this.tx, className, ids)
    const removed = rows.map(toWire)
    for (const before of removed)
      this.changes.push({
        kind: 'delete',
        className: before.className,
        objectId: before.objectId,
        before,
        after: null,
      })
    return removed
  }

  /**
   * Sets top-level `fields` in the objects of `className` among `ids`, whose values were
   * `fieldsBefore` (the same in each); returns them as they are now.
   */
  async merge(
    className: string,
    ids: string[],
    fields: Document,
    fieldsBefore: Document,
  ): Promise<WireObject[]> {
    const rows = await this.tx
      .update(objects)
      .set({
        data: sql`${objects.data} || ${JSON.stringify(fields)}::jsonb`,
        updatedAt: new Date(),
      })
      .where(and(eq(objects.className, className), inArray(objects.id, ids)))
      .returning()
    const merged = rows.map(toWire)
    for (const after of merged) {
      const before = { ...after, data: { ...after.data, ...fieldsBefore } }
      this.changes.push({
        kind: 'update',
        className: after.className,
        objectId: after.objectId,
        before,
        after,
      })
    }
    return merged
  }
}

/** What `modify` makes of an object: its new document and/or ACL (or owner), and relation members. */
export interface Change {
  data?: Document
  acl?: Acl
  ownerId?: string
  /** Members added to or removed from its relation fields, in the same transaction. */
  relations?: RelationChange[]
}

/**
 * Rows from which `insertNew` copies them in (the database's cheapest way in) rather
 * than inserting them: below it the savepoint around the copy costs more than it saves.
 */
const BULK_COPY_ROWS = 50

/** Times a change is computed again when its object changed while its `beforeSave` ran. */
const MAX_REPLANS = 5

/** Whether `object` meets a pointer constraint (any object meets none). */
const meets = (object: WireObject, constraint: PointerConstraint | undefined) =>
  !constraint ||
  (constraint.userId !== undefined &&
    constraint.fields.some((field) => pointsAt(object.data[field], constraint.userId!)))

/** Whether a `where` asks for one id alone (what Parse calls a `get`). */
const isGet = (where: Condition | undefined) =>
  where?.terms.length === 1 &&
  where.terms[0]!.kind === 'id' &&
  where.terms[0]!.field === 'objectId' &&
  where.terms[0]!.test.op === '$eq'

const sameObject = (a: WireObject, b: WireObject) =>
  a.updatedAt === b.updatedAt &&
  isDeepStrictEqual(a.data, b.data) &&
  isDeepStrictEqual(a.acl, b.acl)

const rowOf = ({ acl, ...row }: NewObject) => ({ ...row, ...permsOf(acl) })

const idTaken = () =>
  new HttpError(409, 'object_id_taken', 'An object of this class already has this objectId.')

const nameTaken = (name: unknown) =>
  new HttpError(
    409,
    'role_name_taken',
    `A role named "${String(name).slice(0, 128)}" already exists: role names are unique. Add members to it, or pick another name.`,
  )

const created = (after: WireObject): ObjectChange => ({
  kind: 'create',
  className: after.className,
  objectId: after.objectId,
  before: null,
  after,
})

async function fetchObjects(db: Database, keys: FetchKey[]): Promise<(WireObject | null)[]> {
  // Each fetch is matched with its own viewer, by its position in the batch.
  const input = JSON.stringify(
    keys.map((key, n) => ({ n, c: key.className, i: key.objectId, p: key.viewer ?? ['*'] })),
  )
  const result = await db.execute(sql`
    select json_agg(json_build_array(k.n, ${objects.id}, ${objects.ownerId}, ${objects.readPerm},
      ${objects.writePerm}, ${objects.createdAt}, ${objects.updatedAt}, ${objects.data})) as rows
    from jsonb_to_recordset(${input}::jsonb) as k(n int, c text, i text, p text[])
    join ${objects} on ${objects.className} = k.c and ${objects.id} = k.i
      and ${visibleTo(sql`k.p`)}`)
  const found: (WireObject | null)[] = keys.map(() => null)
  for (const [n, ...row] of packedRows<[number, ...PackedRow]>(result))
    found[n] = unpack(keys[n]!.className, row)
  return found
}
