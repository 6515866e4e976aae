import { and, sql, type SQL } from 'drizzle-orm'
import { queryRows, textArray, type Database } from '../db/client.ts'
import { objects, users } from '../db/schema.ts'
import { HttpError, notFound, unauthorized } from '../errors.ts'
import {
  ANY_OWNER,
  changeableBy,
  unreadable,
  unwritable,
  type Changer,
  type Viewer,
} from './access.ts'
import {
  checkOperation,
  hiddenFields,
  pointerCondition,
  type ClassPermissionsCache,
  type Operation,
  type PointerConstraint,
} from './class-permissions.ts'
import type { ClassRules } from './class-rules.ts'
import { refuseProtectedFields, type AskedFields } from './protected-queries.ts'
import { VISITOR_OWNER, type ObjectTarget } from './object-store.ts'
import type { WireObject } from './rows.ts'
import type { SignedOutWrites } from './signed-out-writes.ts'
import type { ViewerRoles } from './viewer-roles.ts'
import type { CreateRequest } from './writer.ts'

// The store's access decisions: who a caller is to the access rule (their list), what the
// class's rules and permissions let them create, change, delete and see, and the refusals.
// What they may read and write of each object is decided in SQL (the conditions built here
// and in access.ts go into the statements' WHERE clauses); only the fields hidden from them
// (`protectedFields`) are removed here, from what was read.
//
// A client that is not signed in (`userId` / actor undefined) is judged as `*`: it changes and
// deletes what the ACLs and the class's permissions let everyone change, as in Parse. Creating
// is Portico's one exception: it needs a sign-in unless the class's permissions name `*` for
// `create`, or the class has none and the request says that is open (Parse's default, which the
// compatibility mount asks for). Each signed-out
// write is counted against its client's limit (signed-out-writes.ts) once its checks passed and
// before anything is written.

/** What a caller adding a field meets: the refusal, and the fields the class declares. */
interface AddFieldRefusal {
  error: HttpError
  declared: Record<string, unknown>
}

/** What a change or delete may touch, and what its new fields must pass. */
export interface ChangeDecision {
  /** The object if the caller may change (delete) it, as SQL (built anew for each statement). */
  writable: () => SQL
  /**
   * Set when the caller may not add fields: throws unless the class has each of the fields a
   * change adds (checked in the change's transaction `tx`).
   */
  fieldsAdded: ((tx: Database, fields: string[]) => Promise<void>) | undefined
}

/** Who a create is made as: undefined for a client that is not signed in. */
export const creatorOf = (request: CreateRequest): Changer | undefined =>
  request.signedOut ? undefined : (request.writer ?? request.ownerId)

export class AccessDecisions {
  constructor(
    private readonly db: Database,
    private readonly roles: ViewerRoles,
    private readonly rules: ClassRules,
    private readonly permissions: ClassPermissionsCache | undefined,
    private readonly signedOutWrites: SignedOutWrites | undefined,
  ) {}

  /** The list a caller's access is compared with (access.ts): their id and roles, with `*`. */
  async viewer(changer: Changer | undefined): Promise<Viewer> {
    if (changer === ANY_OWNER || changer === undefined) return changer
    return this.roles.listOf(changer)
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
    if (!this.permissions || viewer === ANY_OWNER) return undefined
    return checkOperation(await this.permissions.of(className), className, operation, viewer)
  }

  /** `allowed` as a condition: SQL the objects must meet, or false when refused outright. */
  async allowedCondition(
    className: string,
    operation: Operation,
    viewer: Viewer,
  ): Promise<SQL | undefined | false> {
    const constraint = await this.allowed(className, operation, viewer).catch((error: unknown) => {
      if (error instanceof HttpError) return false as const
      throw error
    })
    return constraint && pointerCondition(constraint)
  }

  /** Throws 119 when `asked` names a field `className` hides from `viewer` (protected-queries.ts). */
  async assertQueryable(className: string, viewer: Viewer, asked: AskedFields): Promise<void> {
    if (!this.permissions) return
    refuseProtectedFields(await this.permissions.of(className), className, viewer, asked)
  }

  /** Throws unless objects of `className` may be created and deleted at all (class-rules.ts). */
  assertWritableClass(className: string): void {
    this.rules.assertWritable(className, ANY_OWNER)
  }

  /** `object` without the fields its class's `protectedFields` hide from `viewer`. */
  async visible(object: WireObject, viewer: Viewer): Promise<WireObject> {
    if (!this.permissions || viewer === ANY_OWNER) return object
    const hidden = hiddenFields(await this.permissions.of(object.className), viewer, object.data)
    if (hidden.length === 0) return object
    const data = { ...object.data }
    for (const field of hidden) delete data[field]
    return { ...object, data }
  }

  /** `object` as `viewerId` may see it (without its class's protected fields). */
  async visibleTo(object: WireObject, viewerId: Changer | undefined): Promise<WireObject> {
    // Most classes hide nothing: the viewer's roles are looked up only for those that do.
    if (!(await this.permissions?.of(object.className))?.protectedFields) return object
    return this.visible(object, await this.viewer(viewerId))
  }

  /** Throws unless the class's rules and permissions let `actor` create `request` (and add its fields). */
  async mayCreate(request: CreateRequest, actor: Changer | undefined): Promise<void> {
    this.rules.assertWritable(request.className, actor)
    if (actor === undefined) await this.#mayCreateSignedOut(request)
    if (this.permissions && actor !== ANY_OWNER) {
      const viewer = await this.viewer(actor)
      await this.allowed(request.className, 'create', viewer)
      const refusal = await this.#addFieldRefusal(request.className, viewer)
      if (refusal)
        await this.#assertFieldsHeld(this.db, request.className, Object.keys(request.data), refusal)
    }
    if (actor !== undefined) return
    await this.signedOutWrites?.charge(request.client)
    // Made here, each time (signed-out creates are rare): its row may have been deleted since.
    await this.db.insert(users).values(VISITOR_OWNER).onConflictDoNothing()
  }

  /**
   * Throws 401 unless `className`'s permissions let everyone create, or it has none and the
   * request takes that as open (see the top of this file).
   */
  async #mayCreateSignedOut({ className, openWithoutPermissions }: CreateRequest): Promise<void> {
    const permissions = await this.permissions?.of(className)
    if (openWithoutPermissions && this.permissions && !permissions) return
    const rule = permissions?.operations.create
    if (!rule?.who.has('*'))
      throw unauthorized(
        `Sign in to create ${className} objects: only a class whose permissions let everyone (*) create takes them from clients that are not signed in.`,
      )
  }

  /**
   * What `input.userId` may change (`update`) or delete of `input`'s object; throws the refusal
   * of the class's rules and permissions, and counts a signed-out write.
   */
  async mayChange(input: ObjectTarget, operation: 'update' | 'delete'): Promise<ChangeDecision> {
    const { className, objectId, userId } = input
    // A change of a class that keeps some fields to the server (kept-fields.ts) is judged by the
    // objects' ACL and those fields; any other class's rules may refuse a change outright.
    if (operation === 'delete' || !this.rules.keptFields(className))
      this.rules.assertWritable(className, userId)
    const viewer = await this.viewer(userId)
    const constraint = await this.allowed(className, operation, viewer)
    const refusal =
      operation === 'update' ? await this.#addFieldRefusal(className, viewer) : undefined
    if (userId === undefined) await this.signedOutWrites?.charge(input.client)
    const writable = () =>
      and(changeableBy(className, objectId, viewer), constraint && pointerCondition(constraint))!
    const fieldsAdded =
      refusal &&
      ((tx: Database, fields: string[]) => this.#assertFieldsHeld(tx, className, fields, refusal))
    return { writable, fieldsAdded }
  }

  /**
   * The refusal `viewer` meets when adding a field to `className` (the `addField` permission),
   * with the fields the class declares; undefined when they may add any.
   */
  async #addFieldRefusal(className: string, viewer: Viewer): Promise<AddFieldRefusal | undefined> {
    if (!this.permissions) return undefined
    const error = await this.allowed(className, 'addField', viewer).then(
      () => undefined,
      (refused: unknown) => {
        if (refused instanceof HttpError) return refused
        throw refused
      },
    )
    return error && { error, declared: await this.permissions.declaredFields(className) }
  }

  /**
   * Throws `refusal` unless `className` has each of `fields` already: declared, or held by an
   * object. `db` is the caller's transaction when it is in one.
   */
  async #assertFieldsHeld(
    db: Database,
    className: string,
    fields: string[],
    refusal: AddFieldRefusal,
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

  /**
   * Why a change was refused: 404 when the caller cannot even read the object (`readable` finds
   * it as they may read it), 403 when they can read it but its ACL does not let them write it.
   */
  async refusal(
    userId: Changer | undefined,
    readable: () => Promise<WireObject | null>,
  ): Promise<HttpError> {
    if (userId === ANY_OWNER) return notFound('No such object.')
    return (await readable()) ? unwritable() : unreadable()
  }
}
