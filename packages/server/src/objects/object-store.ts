import { PLACEHOLDER_USERS } from '@portico/sdk/wire'
import type { SQL } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import type { Changer, Viewer } from './access.ts'
import type { Acl } from './acl.ts'
import type { Operation, PointerConstraint } from './class-permissions.ts'
import type { Condition } from './condition.ts'
import type { AskedFields } from './protected-queries.ts'
import type { RelationChange } from './relations.ts'
import type { WireObject } from './rows.ts'
import type { Document } from './wire.ts'
import type { CreateOutcome, CreateRequest } from './writer.ts'

// What the rest of the server sees of the objects: `services.objects`, the only way to their
// table outside `objects/`. Callers import this type; the store that implements it (store.ts)
// is built once, by the services.

/** Owner of the objects made by clients that are not signed in: a user who never signs in. */
export const VISITOR_OWNER = {
  id: PLACEHOLDER_USERS.visitor.id,
  address: PLACEHOLDER_USERS.visitor.address,
}

/**
 * Who the audit log names for a change: the console's admin or the master key. Undefined for a
 * change by a user or a visitor, which is not audited.
 */
export type AuditActor = string | undefined

/**
 * A change or delete of one object; `client` is the caller's address, counted when signed out;
 * `auditActor` is who the audit log names, written in the change's own transaction.
 */
export interface ObjectTarget {
  className: string
  objectId: string
  userId: Changer | undefined
  client?: string | undefined
  auditActor?: AuditActor
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

/** What `modify` makes of an object: its new document and/or ACL (or owner), and relation members. */
export interface Change {
  data?: Document
  acl?: Acl
  ownerId?: string
  /** Members added to or removed from its relation fields, in the same transaction. */
  relations?: RelationChange[]
}

/** The access an object written by the server is given. */
export interface ObjectAccess {
  ownerId: string
  acl: Acl
}

/** Writes of the server's own in a caller's transaction (`ObjectStore.transaction`). */
export interface ObjectWrites {
  /** Writes objects of one class and owner whose id is free; returns the objects written. */
  insertNew(
    className: string,
    access: ObjectAccess,
    rows: readonly { id: string; data: Document }[],
    at: Date,
  ): Promise<WireObject[]>
  /**
   * `insertNew` for many rows whose objects the caller does not need (a contract sync's range):
   * returns how many were written.
   */
  insertMany(
    className: string,
    access: ObjectAccess,
    rows: readonly { id: string; data: Document }[],
    at: Date,
  ): Promise<number>
  /** Deletes the objects of `className` among `ids`; returns them as they were. */
  remove(className: string, ids: string[]): Promise<WireObject[]>
  /**
   * Sets top-level `fields` in the objects of `className` among `ids`, whose values were
   * `fieldsBefore` (the same in each); returns them as they are now.
   */
  merge(
    className: string,
    ids: string[],
    fields: Document,
    fieldsBefore: Document,
  ): Promise<WireObject[]>
  /**
   * Sets each object's own top-level fields (keyed by id) in ONE statement, each with the values
   * they had; returns the objects as they are now.
   */
  mergeEach(
    className: string,
    updates: ReadonlyMap<string, { fields: Document; fieldsBefore: Document }>,
  ): Promise<WireObject[]>
}

/** The object store. Every read and write takes the access rule (access.ts) into its statements. */
export interface ObjectStore {
  /** One object, if `viewer` may read it (through the class's find triggers, if any). */
  get(className: string, objectId: string, viewer: Changer | undefined): Promise<WireObject | null>
  /**
   * Whether `viewer` may do `operation` on `className` by its class-level permissions: throws
   * the refusal, or gives the pointer constraint the objects must also meet.
   */
  allowed(
    className: string,
    operation: Operation,
    viewer: Viewer,
  ): Promise<PointerConstraint | undefined>
  /** Throws unless objects of `className` may be created and deleted at all (class-rules.ts). */
  assertWritableClass(className: string): void
  /** Throws 119 when `asked` names a field `className` hides from `changer` (protected-queries.ts). */
  assertQueryable(
    changer: Changer | undefined,
    className: string,
    asked: AskedFields,
  ): Promise<void>
  /** `object` as `viewerId` may see it (without its class's protected fields). */
  visibleTo(object: WireObject, viewerId: Changer | undefined): Promise<WireObject>
  /** The objects among `keys` (any classes) that `viewerId` may read, by `className/objectId`. */
  readable(
    keys: { className: string; objectId: string }[],
    viewerId: Changer | undefined,
  ): Promise<Map<string, WireObject>>
  /** The fields `className`'s schema declares. */
  declaredFields(className: string): Promise<Record<string, unknown>>
  /** An object whatever its access rule, for the server's own use (never answered as such). */
  readAsServer(keys: { className: string; objectId: string }): Promise<WireObject | null>
  /**
   * A page of the objects of `className` that `viewer` may read and `query` selects (with their
   * count when asked), bounded by the answer's byte budget.
   */
  query(
    changer: Changer | undefined,
    className: string,
    query: ObjectQuery,
  ): Promise<{ results: WireObject[]; count?: number }>
  /** The objects of `className` that `viewer` may read and `where` selects, for an export. */
  scan(changer: Changer, className: string, where: Condition | undefined): ObjectScan
  /** `where` on `className` as SQL, for a live subscription's filter (see `matches`). */
  liveCondition(className: string, where: Condition | undefined): SQL | undefined
  /** An aggregate pipeline on every object of `className` (the master key's alone). */
  aggregate(className: string, pipeline: unknown): Promise<unknown[]>
  /** The distinct values of `field` among the objects of `className` `where` selects. */
  distinct(className: string, field: string, where: Condition | undefined): Promise<unknown[]>
  /** How many objects each class holds, by class name. */
  countByClass(): Promise<{ className: string; count: number }[]>
  /** Whether each filter's viewer may read `object` and its condition holds for it. */
  matches(object: WireObject, filters: readonly ObjectFilter[]): Promise<boolean[]>
  /** Creates an object, with its save triggers. */
  create(request: CreateRequest): Promise<CreateOutcome>
  /** Creates an object holding relation members, in one transaction. */
  createRelated(request: CreateRequest, relations: RelationChange[]): Promise<WireObject>
  /**
   * Changes an object in one transaction: `modify` computes the change from the current object.
   * Refused (404 or 403) unless its ACL lets `userId` write it.
   */
  modify(
    input: ObjectTarget,
    modify: (current: WireObject) => Change,
  ): Promise<{ before: WireObject; after: WireObject }>
  /** Merges `data` into an object and/or replaces its ACL, or turns its public read on or off. */
  update(
    input: ObjectTarget & { data?: Document; acl?: Acl; publicRead?: boolean },
  ): Promise<WireObject>
  /** Deletes an object (and the relation members it held) if `userId` may; returns it as it was. */
  delete(input: ObjectTarget): Promise<WireObject>
  /** Writes the rows whose id is free in their class; returns the objects written. */
  insertAbsent(rows: NewObject[]): Promise<WireObject[]>
  /** Writes imported rows where their id is free in their class; returns how many were written. */
  importRows(rows: NewObject[], tx?: Database, options?: { triggers?: boolean }): Promise<number>
  /** Relation members written as they are (an import's); returns how many were new. */
  importRelations(
    rows: readonly { className: string; field: string; owningId: string; relatedId: string }[],
    tx?: Database,
  ): Promise<number>
  /** The owner of each object of `className` among `ids` that exists, by id. */
  owners(className: string, ids: string[]): Promise<Map<string, string>>
  /**
   * Runs `work` in one transaction: the caller writes its own tables through `tx` and objects
   * through `writes`. What the writes changed is told to live listeners once it committed.
   */
  transaction<T>(work: (tx: Database, writes: ObjectWrites) => Promise<T>): Promise<T>
}
