import { and, eq, sql, type SQL } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import type { Cluster } from '../db/cluster/types.ts'
import { objects } from '../db/schema.ts'
import { badRequest, HttpError } from '../errors.ts'
import { ANY_OWNER, type Viewer } from './access.ts'
import type { Document } from './wire.ts'

// Class-level permissions, as Parse has them: per class, who may find, get, count, create,
// update or delete its objects and add fields to it (`*`, user ids, `role:<name>`,
// `requiresAuthentication`, `pointerFields`), the fields some callers never see
// (`protectedFields`), and the pointer fields naming users who alone may read or write an object
// (`readUserFields` / `writeUserFields`). They come before the objects' ACLs: a caller must pass
// both. The master key and the console pass them. A class without them is open to all; once a
// class has them, an operation they leave out is the master key's alone, as in Parse Server
// (which reads a missing operation as `{}`): a partial set never opens more than it names.
//
// They are kept as Parse keeps them, one object of the class `_SCHEMA` per class (its id the
// class name), which only the server reads: set through the schema routes, the console or an
// import. Every process remembers them all (they are few), until one is written anywhere.

export const SCHEMA_CLASS = '_SCHEMA'

export const OPERATIONS = [
  'find',
  'get',
  'count',
  'create',
  'update',
  'delete',
  'addField',
] as const
export type Operation = (typeof OPERATIONS)[number]

/** Who may do one operation: `*`, user ids and `role:<name>` set true, and the two qualifiers. */
export interface OperationPermission {
  who: ReadonlySet<string>
  requiresAuthentication: boolean
  pointerFields: readonly string[]
}

export interface ClassPermissions {
  operations: Partial<Record<Operation, OperationPermission>>
  /** Fields hidden from a caller, by who they are hidden from (`*`, ids, roles, ...). */
  protectedFields?: Record<string, readonly string[]>
  readUserFields: readonly string[]
  writeUserFields: readonly string[]
}

/** Fields a class declares (`fields` of the schema routes), beside those its objects hold. */
export type DeclaredFields = Record<string, Document>

const FIELD = /^[A-Za-z][A-Za-z0-9_]{0,63}$/
const WHO = /^(\*|role:.{1,128}|[A-Za-z0-9_-]{1,64})$/

const invalid = (message: string) => badRequest(message, 'invalid_class_permissions')

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

function fieldList(value: unknown, name: string): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value) || value.some((f) => typeof f !== 'string' || !FIELD.test(f)))
    throw invalid(`"${name}" must be a list of field names.`)
  return value as string[]
}

/**
 * Parse's `classLevelPermissions` JSON, checked (400 `invalid_class_permissions` when it is not
 * one). The wire form is kept as given when valid: `toWire` gives it back.
 */
export function parseClassPermissions(value: unknown): ClassPermissions {
  if (!isObject(value)) throw invalid('"classLevelPermissions" must be an object.')
  const permissions: ClassPermissions = {
    operations: {},
    readUserFields: fieldList(value.readUserFields, 'readUserFields'),
    writeUserFields: fieldList(value.writeUserFields, 'writeUserFields'),
  }
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'readUserFields' || key === 'writeUserFields') continue
    if (key === 'protectedFields') {
      if (!isObject(entry)) throw invalid('"protectedFields" must map who to a list of fields.')
      const protectedFields: Record<string, string[]> = {}
      for (const [who, fields] of Object.entries(entry)) {
        if (!WHO.test(who) && who !== 'authenticated' && !/^userField:[A-Za-z]\w{0,63}$/.test(who))
          throw invalid(`"${who.slice(0, 80)}" in "protectedFields" names no one.`)
        protectedFields[who] = fieldList(fields, `protectedFields.${who}`)
      }
      permissions.protectedFields = protectedFields
      continue
    }
    if (!(OPERATIONS as readonly string[]).includes(key))
      throw invalid(
        `"${key.slice(0, 80)}" is not a class-level permission: use ${OPERATIONS.join(', ')}, protectedFields, readUserFields or writeUserFields.`,
      )
    if (!isObject(entry)) throw invalid(`"${key}" must be an object such as {"*": true}.`)
    const who = new Set<string>()
    let requiresAuthentication = false
    let pointerFields: string[] = []
    for (const [name, flag] of Object.entries(entry)) {
      if (name === 'pointerFields') pointerFields = fieldList(flag, `${key}.pointerFields`)
      else if (name === 'requiresAuthentication') {
        if (typeof flag !== 'boolean')
          throw invalid(`"${key}.requiresAuthentication" is true or false.`)
        requiresAuthentication = flag
      } else {
        if (!WHO.test(name))
          throw invalid(
            `"${name.slice(0, 80)}" in "${key}" names no one: use *, a user id or role:<name>.`,
          )
        if (typeof flag !== 'boolean')
          throw invalid(`"${key}.${name.slice(0, 80)}" is true or false.`)
        if (flag) who.add(name)
      }
    }
    permissions.operations[key as Operation] = { who, requiresAuthentication, pointerFields }
  }
  return permissions
}

/**
 * The permissions as stored, read without trusting them (the console edits them as an object):
 * a part that is not valid lets no one but the server through.
 */
export function storedPermissions(value: unknown): ClassPermissions | undefined {
  if (value === undefined || value === null) return undefined
  try {
    return parseClassPermissions(value)
  } catch {
    // Closed rather than open: no operation names anyone, so all are the master key's alone.
    return { operations: {}, readUserFields: [], writeUserFields: [] }
  }
}

/** An operation stored permissions leave out: it names no one (Parse's `{}`). */
const CLOSED: OperationPermission = {
  who: new Set(),
  requiresAuthentication: false,
  pointerFields: [],
}

/** What a caller who passed an operation's permission may still touch: objects naming them. */
export interface PointerConstraint {
  /** Fields holding a pointer to the user (or a list of such pointers), any of which will do. */
  fields: readonly string[]
  /** The caller's user id; undefined when signed out, who then touches nothing. */
  userId: string | undefined
}

const userOf = (viewer: Viewer): string | undefined =>
  Array.isArray(viewer) ? viewer.find((who) => who !== '*' && !who.startsWith('role:')) : undefined

/**
 * Whether `viewer` may do `operation` on the objects of a class: throws the refusal, or returns
 * undefined (all objects the ACLs allow) or the pointer constraint their objects must meet. As
 * Parse decides it: a listed entry lets through; else `requiresAuthentication` lets any
 * signed-in user through; else pointer fields let through to the objects naming the caller.
 * An operation the stored permissions leave out names no one.
 */
export function checkOperation(
  permissions: ClassPermissions | undefined,
  className: string,
  operation: Operation,
  viewer: Viewer,
): PointerConstraint | undefined {
  if (!permissions || viewer === ANY_OWNER) return undefined
  const rule = permissions.operations[operation] ?? CLOSED
  const list = viewer ?? ['*']
  if (list.some((who) => rule.who.has(who))) return undefined
  const userId = userOf(viewer)
  const userFields = ['find', 'get', 'count'].includes(operation)
    ? permissions.readUserFields
    : operation === 'addField'
      ? []
      : permissions.writeUserFields
  const fields = [...new Set([...rule.pointerFields, ...userFields])]
  if (rule.requiresAuthentication) {
    if (!userId)
      throw new HttpError(
        401,
        'class_requires_sign_in',
        'Permission denied, user needs to be authenticated.',
      )
  } else if (operation === 'create' || fields.length === 0) {
    throw new HttpError(
      403,
      'class_permission_denied',
      `Permission denied for action ${operation} on class ${className}.`,
    )
  }
  return fields.length ? { fields, userId } : undefined
}

/** The objects a pointer constraint lets through, as SQL. */
export function pointerCondition(constraint: PointerConstraint): SQL {
  if (!constraint.userId) return sql`false`
  const pointer = JSON.stringify({
    __type: 'Pointer',
    className: '_User',
    objectId: constraint.userId,
  })
  const tests = constraint.fields.map(
    (field) =>
      sql`(${objects.data} -> ${field} @> ${pointer}::jsonb or ${objects.data} -> ${field} @> ${`[${pointer}]`}::jsonb)`,
  )
  return sql`(${sql.join(tests, sql` or `)})`
}

/** Whether `value` is a pointer to user `userId`, or a list holding one. */
export const pointsAt = (value: unknown, userId: string): boolean =>
  Array.isArray(value)
    ? value.some((item) => pointsAt(item, userId))
    : isObject(value) && value.className === '_User' && value.objectId === userId

/**
 * The fields of `data` `viewer` may not see (Parse's `protectedFields`): those hidden from every
 * group the viewer is in (`*`, `authenticated`, their id, their roles, `userField:<f>` when
 * field `f` points at them).
 */
export function hiddenFields(
  permissions: ClassPermissions | undefined,
  viewer: Viewer,
  data: Document,
): string[] {
  const rules = permissions?.protectedFields
  if (!rules || viewer === ANY_OWNER) return []
  const userId = userOf(viewer)
  const list = new Set(viewer ?? ['*'])
  const sets: (readonly string[])[] = []
  for (const [who, fields] of Object.entries(rules)) {
    const applies = who.startsWith('userField:')
      ? userId !== undefined && pointsAt(data[who.slice('userField:'.length)], userId)
      : who === 'authenticated'
        ? userId !== undefined
        : list.has(who)
    if (applies) sets.push(fields)
  }
  if (sets.length === 0) return []
  return sets.reduce((kept, fields) => kept.filter((field) => fields.includes(field))) as string[]
}

const MEMORY_MS = 5_000
const CHANNEL = 'portico_class_permissions_changed'
const codec = {
  encode: (messages: true[]) => messages.map(() => '1'),
  decode: () => [true as const],
}

interface SchemaEntry {
  permissions: ClassPermissions | undefined
  fields: DeclaredFields
  arrays: ReadonlySet<string>
}

const none: ReadonlySet<string> = new Set()

/** Every class's permissions, remembered by each process until one is written anywhere. */
export class ClassPermissionsCache {
  readonly #db: Database
  #all: Promise<Map<string, SchemaEntry>> | undefined
  #snapshot = new Map<string, SchemaEntry>()
  #until = 0
  #generation = 0
  readonly #changes

  constructor(db: Database, cluster: Pick<Cluster, 'broadcast'>) {
    this.#db = db
    this.#changes = cluster.broadcast(CHANNEL, codec, () => this.forget())
    this.#changes.listen(() => this.forget())
  }

  /** The permissions of `className`; undefined when it has none (open to all). */
  async of(className: string): Promise<ClassPermissions | undefined> {
    return (await this.#load()).get(className)?.permissions
  }

  /** The fields `className` declares as arrays (array-fields.ts). */
  async arrayFields(className: string): Promise<ReadonlySet<string>> {
    return (await this.#load()).get(className)?.arrays ?? none
  }

  /** `arrayFields` as last read, for callers that cannot wait (a live query's filter). */
  arrayFieldsNow(className: string): ReadonlySet<string> {
    // Refreshes what the next call reads; a failed read is retried then.
    void this.#load().catch(() => {})
    return this.#snapshot.get(className)?.arrays ?? none
  }

  /** The fields `className` declares. */
  async declaredFields(className: string): Promise<DeclaredFields> {
    return (await this.#load()).get(className)?.fields ?? {}
  }

  #load(): Promise<Map<string, SchemaEntry>> {
    const now = Date.now()
    if (this.#all && this.#until > now) return this.#all
    const generation = this.#generation
    const loading = this.#db
      .select({ id: objects.id, data: objects.data })
      .from(objects)
      .where(and(eq(objects.className, SCHEMA_CLASS)))
      .then(
        (rows) =>
          new Map(
            rows.map((row) => {
              const data = row.data as Record<string, unknown>
              const fields = isObject(data.fields) ? (data.fields as DeclaredFields) : {}
              const arrays = new Set(
                Object.entries(fields)
                  .filter(([, spec]) => isObject(spec) && spec.type === 'Array')
                  .map(([field]) => field),
              )
              return [
                row.id,
                { permissions: storedPermissions(data.classLevelPermissions), fields, arrays },
              ]
            }),
          ),
      )
    if (generation === this.#generation) {
      this.#all = loading
      this.#until = now + MEMORY_MS
      loading.then(
        (all) => {
          if (this.#all === loading) this.#snapshot = all
        },
        // A failed read is not remembered (below).
        () => {},
      )
      // A failed read is not remembered.
      loading.catch(() => {
        if (this.#all === loading) this.#all = undefined
      })
    }
    return loading
  }

  /** A class's schema was written: every process forgets them. Never throws. */
  async changed(): Promise<void> {
    this.forget()
    // A lost announcement only lets another process use the old permissions for MEMORY_MS.
    await this.#changes.publish([true]).catch(() => {})
  }

  forget(): void {
    this.#generation++
    this.#all = undefined
  }
}
