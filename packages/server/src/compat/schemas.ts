import { eq } from 'drizzle-orm'
import { objects } from '../db/schema.ts'
import { ANY_OWNER } from '../objects/access.ts'
import { parseClassPermissions, SCHEMA_CLASS } from '../objects/class-permissions.ts'
import { assertOneGeoPointField } from './geo-fields.ts'
import { isValidName, SYSTEM_CLASSES } from '../objects/names.ts'
import { PARSE_DEFAULT_FIELDS } from '../objects/parse-shape.ts'
import type { Document } from '../objects/wire.ts'
import { viewerOf, type CompatAnswer, type CompatCall } from './call.ts'
import { defaultValue } from './field-defaults.ts'
import { MASTER_OWNER } from './master-key.ts'
import { ParseCode, ParseError } from './parse-error.ts'
import { compatClassName } from './classes.ts'
import { storedWhere } from './where.ts'

// `schemas` and `schemas/:className`, master key only as in Parse Server: a class's fields and
// its class-level permissions (objects/class-permissions.ts). The store keeps them in one object
// of `_SCHEMA` per class, which the console also edits. Fields are the ones a class declares
// here plus those its objects hold (Portico has no fixed columns); declared ones matter to the
// `addField` permission.

/** What Parse answers for a class that has no permissions of its own: open to all. */
const OPEN = {
  find: { '*': true },
  count: { '*': true },
  get: { '*': true },
  create: { '*': true },
  update: { '*': true },
  delete: { '*': true },
  addField: { '*': true },
  protectedFields: { '*': [] },
}

/**
 * What a class with permissions of its own answers for the operations they leave out: `{}`,
 * the master key's alone, as the store enforces it (objects/class-permissions.ts) and as Parse
 * Server answers.
 */
const CLOSED = {
  find: {},
  count: {},
  get: {},
  create: {},
  update: {},
  delete: {},
  addField: {},
  protectedFields: {},
}

const MAX_DECLARED = 500
const FIELD_TYPES = new Set([
  'String',
  'Number',
  'Boolean',
  'Date',
  'Object',
  'Array',
  'GeoPoint',
  'File',
  'Pointer',
  'Relation',
  'Polygon',
  'Bytes',
])

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

function requireMaster(call: CompatCall) {
  if (!call.master)
    throw new ParseError(ParseCode.OPERATION_FORBIDDEN, 'unauthorized: master key is required')
}

function schemaClassName(name: string | undefined): string {
  if (name && (SYSTEM_CLASSES.has(name) || isValidName(name))) return name
  throw new ParseError(
    ParseCode.INVALID_CLASS_NAME,
    `Invalid class name: ${String(name).slice(0, 80)}. Class names start with a letter and contain only letters, digits and _.`,
  )
}

/** The type Parse gives a stored value. */
function typeOf(value: unknown): Document {
  if (typeof value === 'number') return { type: 'Number' }
  if (typeof value === 'boolean') return { type: 'Boolean' }
  if (typeof value === 'string') return { type: 'String' }
  if (Array.isArray(value)) return { type: 'Array' }
  if (isObject(value)) {
    const kind = value.__type
    if ((kind === 'Pointer' || kind === 'Relation') && typeof value.className === 'string')
      return { type: kind, targetClass: value.className }
    if (typeof kind === 'string' && FIELD_TYPES.has(kind)) return { type: kind }
  }
  return { type: 'Object' }
}

async function stored(call: CompatCall, className: string) {
  return call.services.objects.readAsServer({ className: SCHEMA_CLASS, objectId: className })
}

/** The fields the first objects of `className` hold, typed by their first values. */
async function heldFields(call: CompatCall, className: string): Promise<Record<string, Document>> {
  const rows = await call.services.schemaReads.heldFields(className)
  return Object.fromEntries(
    rows.map((row) => [
      row.key,
      typeOf(typeof row.value === 'string' ? parseJson(row.value) : row.value),
    ]),
  )
}

/** A jsonb value as a driver that answers its text gives it. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    // Not JSON text: it is the value itself.
    return text
  }
}

/** Stored permissions as Parse answers them: every operation, those left out as `{}`. */
function permissionsAnswer(stored: unknown) {
  if (stored === undefined || stored === null) return OPEN
  // Stored permissions that are not an object (an edit in the console) let no one through.
  return isObject(stored) ? { ...CLOSED, ...stored } : CLOSED
}

/**
 * The permissions a schema body sets: checked before anything is written. A number stands for
 * no operations at all, as Parse Server takes it (its SDK's own tests send one).
 */
function sentPermissions(value: unknown): unknown {
  if (typeof value === 'number') return {}
  if (value !== undefined && value !== null) parseClassPermissions(value)
  return value
}

async function schemaOf(call: CompatCall, className: string) {
  const [row, held] = await Promise.all([stored(call, className), heldFields(call, className)])
  if (!row && Object.keys(held).length === 0) return undefined
  const declared = isObject(row?.data.fields) ? (row.data.fields as Record<string, Document>) : {}
  return {
    className,
    fields: { ...PARSE_DEFAULT_FIELDS, ...held, ...declared },
    classLevelPermissions: permissionsAnswer(row?.data.classLevelPermissions),
    indexes: { _id_: { _id: 1 } },
  }
}

const missing = (className: string) =>
  new ParseError(ParseCode.INVALID_CLASS_NAME, `Class ${className} does not exist.`)

/** `GET schemas`: every class that has objects or a schema. */
export async function listSchemas(call: CompatCall): Promise<CompatAnswer> {
  requireMaster(call)
  const classes = new Set<string>()
  for (const { className } of await call.services.objects.countByClass())
    if (SYSTEM_CLASSES.has(className) || isValidName(className)) classes.add(className)
  const { results } = await call.services.objects.query(ANY_OWNER, SCHEMA_CLASS, {
    limit: 1_000,
    skip: 0,
  })
  for (const row of results) classes.add(row.objectId)
  const schemas = await Promise.all([...classes].sort().map((name) => schemaOf(call, name)))
  return { body: { results: schemas.filter(Boolean) } }
}

/** `GET schemas/:className`. */
export async function getSchema(call: CompatCall, name: string): Promise<CompatAnswer> {
  requireMaster(call)
  const className = schemaClassName(name)
  const schema = await schemaOf(call, className)
  if (!schema) throw missing(className)
  return { body: schema }
}

/** The `fields` of a body: declared fields to add, and those to drop (`{"__op": "Delete"}`). */
function fieldChanges(value: unknown): Record<string, Document | undefined> {
  if (value === undefined || value === null) return {}
  if (!isObject(value))
    throw new ParseError(ParseCode.INVALID_JSON, '"fields" must map field names to types.')
  const changes: Record<string, Document | undefined> = {}
  for (const [field, spec] of Object.entries(value)) {
    if (!isValidName(field))
      throw new ParseError(
        ParseCode.INVALID_KEY_NAME,
        `Invalid field name: ${String(field).slice(0, 80)}.`,
      )
    if (isObject(spec) && spec.__op === 'Delete') changes[field] = undefined
    else if (isObject(spec) && typeof spec.type === 'string' && FIELD_TYPES.has(spec.type)) {
      // Kept as declared; checked now so that no later create is refused for it.
      if (spec.defaultValue !== undefined && spec.defaultValue !== null)
        defaultValue(spec.defaultValue, field)
      changes[field] = { ...spec } as Document
    } else
      throw new ParseError(
        ParseCode.INCORRECT_TYPE,
        `"${field}" needs a type: one of ${[...FIELD_TYPES].join(', ')}.`,
      )
  }
  return changes
}

/**
 * `POST schemas/:className` (a new class) and `PUT schemas/:className` (a class that exists):
 * declares fields and sets the class-level permissions, as in Parse Server.
 */
export async function saveSchema(
  call: CompatCall,
  name: string | undefined,
  creating: boolean,
): Promise<CompatAnswer> {
  requireMaster(call)
  const sentName = typeof call.params.className === 'string' ? call.params.className : undefined
  const className = schemaClassName(name ?? sentName)
  if (name && sentName && sentName !== name)
    throw new ParseError(
      ParseCode.INVALID_CLASS_NAME,
      `Class name mismatch between ${String(sentName).slice(0, 80)} and ${name}.`,
    )
  const fields = fieldChanges(call.params.fields)
  const permissions = sentPermissions(call.params.classLevelPermissions)
  const existing = await schemaOf(call, className)
  if (creating && existing)
    throw new ParseError(ParseCode.INVALID_CLASS_NAME, `Class ${className} already exists.`)
  if (!creating && !existing) throw missing(className)

  const { objects } = call.services
  const addsGeoPoint = Object.values(fields).some((spec) => spec?.type === 'GeoPoint')
  const held = addsGeoPoint ? await call.services.schemaReads.geoPointFieldsHeld(className) : []
  await call.services.masterOwner.ensure()
  const now = new Date()
  await objects.insertAbsent([
    {
      className: SCHEMA_CLASS,
      id: className,
      ownerId: MASTER_OWNER.id,
      acl: {},
      data: { fields: {} },
      createdAt: now,
      updatedAt: now,
    },
  ])
  await objects.modify(
    { className: SCHEMA_CLASS, objectId: className, userId: ANY_OWNER },
    (current) => {
      const declared: Record<string, Document> = isObject(current.data.fields)
        ? { ...(current.data.fields as Record<string, Document>) }
        : {}
      if (addsGeoPoint) {
        const before = Object.keys(declared).filter((name) => declared[name]?.type === 'GeoPoint')
        const kept = [...new Set([...before, ...held])].filter(
          (name) => !(name in fields && fields[name] === undefined),
        )
        assertOneGeoPointField(kept, {
          ...Object.fromEntries(kept.map((name) => [name, { type: 'GeoPoint' }])),
          ...fields,
        })
      }
      for (const [field, spec] of Object.entries(fields))
        if (spec === undefined) delete declared[field]
        else declared[field] = spec
      if (Object.keys(declared).length > MAX_DECLARED)
        throw new ParseError(
          ParseCode.INCORRECT_TYPE,
          `A class declares at most ${MAX_DECLARED} fields.`,
        )
      const data: Document = { ...current.data, fields: declared }
      if (permissions === null) delete data.classLevelPermissions
      else if (permissions !== undefined) data.classLevelPermissions = permissions as Document
      return { data }
    },
  )
  return { body: await schemaOf(call, className) }
}

/** `DELETE schemas/:className`: a class without objects only, as in Parse Server. */
export async function deleteSchema(call: CompatCall, name: string): Promise<CompatAnswer> {
  requireMaster(call)
  const className = schemaClassName(name)
  const { count } = await call.services.objects.query(ANY_OWNER, className, {
    limit: 0,
    skip: 0,
    count: true,
  })
  if (count)
    throw new ParseError(
      ParseCode.CLASS_NOT_EMPTY,
      `Class ${className} is not empty, contains ${count} objects, cannot drop schema.`,
    )
  if (await stored(call, className))
    await call.services.objects.delete({
      className: SCHEMA_CLASS,
      objectId: className,
      userId: ANY_OWNER,
    })
  return { body: {} }
}

/** Objects one step of a purge deletes (each step one transaction). */
const PURGE_STEP = 1_000

/**
 * `DELETE purge/:className` (`Parse.Schema#purge`): deletes every object of a class and keeps
 * its schema, master key only as in Parse Server. The server's own classes (`_User`, wallets,
 * roles, job runs) are not purged here.
 */
export async function purgeClass(call: CompatCall, name: string): Promise<CompatAnswer> {
  requireMaster(call)
  const className = schemaClassName(name)
  if (className.startsWith('_'))
    throw new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      `${className} objects are kept by the server and cannot be purged.`,
    )
  call.services.objects.assertWritableClass(className)
  for (;;) {
    const removed = await call.services.objects.transaction(async (tx, writes) => {
      const rows = await tx
        .select({ id: objects.id })
        .from(objects)
        .where(eq(objects.className, className))
        .limit(PURGE_STEP)
      return rows.length
        ? writes.remove(
            className,
            rows.map((row) => row.id),
          )
        : []
    })
    if (removed.length < PURGE_STEP) break
  }
  return { body: {} }
}

/** A parameter sent as JSON text (a query string) or as JSON (an envelope). */
function jsonParam(value: unknown, name: string): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    throw new ParseError(ParseCode.INVALID_JSON, `"${name}" is not valid JSON.`)
  }
}

/**
 * `aggregate/:className`, master key only as in Parse: `pipeline` (objects/aggregate.ts), or
 * `distinct` (a field) with an optional `where`.
 */
export async function aggregateClass(call: CompatCall, name: string): Promise<CompatAnswer> {
  requireMaster(call)
  const className = schemaClassName(name)
  const { params } = call
  const { objects: store } = call.services
  if (params.distinct !== undefined) {
    if (typeof params.distinct !== 'string')
      throw new ParseError(ParseCode.INVALID_QUERY, '"distinct" names a field.')
    const { condition } = await storedWhere(
      { sources: call.services, viewer: await viewerOf(call), className: compatClassName },
      className,
      params.where,
    )
    return { body: { results: await store.distinct(className, params.distinct, condition) } }
  }
  const pipeline = jsonParam(params.pipeline, 'pipeline')
  return { body: { results: await store.aggregate(className, pipeline) } }
}
