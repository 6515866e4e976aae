import { isDeepStrictEqual } from 'node:util'
import { JOB_STATUS } from '../objects/names.ts'
import { assertClassName, SYSTEM_CLASSES } from '../objects/names.ts'
import { parseAcl } from '../objects/acl.ts'
import { DEFAULT_LIMIT, MAX_LIMIT } from '../objects/query.ts'
import type { WireObject } from '../objects/rows.ts'
import { viewerOf, writerOf, type CompatAnswer, type CompatCall } from './call.ts'
import { ANY_OWNER } from '../objects/access.ts'
import { includeTree, resolveIncludes } from './include.ts'
import { storedWhere } from './where.ts'
import { MASTER_OWNER } from './master-key.ts'
import type { CreateRequest } from '../objects/writer.ts'
import { hasParseDefaults } from './parse-defaults.ts'
import { destroyUser } from './destroy-user.ts'
import { customObjectId } from './custom-object-ids.ts'
import { assertOneGeoPoint } from './geo-fields.ts'
import { VISITOR_OWNER } from '../objects/object-store.ts'
import { ParseCode, ParseError } from './parse-error.ts'
import { applyParseWrite, createAcl, relationChangesOf } from './parse-object.ts'
import { isTimeField, timeAlias, toParseObject, type ParseObject } from '../objects/parse-shape.ts'
import { checkRoleWrite, duplicateRole } from './roles.ts'
import { checkRequired, fieldRules, withDefaults } from './field-defaults.ts'
import { syncedView } from './synced-classes.ts'
import { userFieldsRule } from './user-fields.ts'

// `classes/:className` and `classes/:className/:objectId`: Parse's object routes on Portico's
// object store, with its access rule (each query, include and write is the caller's own).

const notFound = () => new ParseError(ParseCode.OBJECT_NOT_FOUND, 'Object not found.')

/** A class the mount serves: an ordinary one, or `_User` / `_EthAddress`. */
export function compatClassName(name: string): string {
  if (SYSTEM_CLASSES.has(name) || name === JOB_STATUS) return name
  if (name.startsWith('_'))
    throw new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      `The class ${name.slice(0, 64)} is not available on Portico.`,
    )
  return assertClassName(name)
}

function wholeNumber(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback
  const n = typeof value === 'string' ? Number(value) : value
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    throw new ParseError(ParseCode.INVALID_QUERY, `"${name}" must be a whole number.`)
  return n
}

function listParam(value: unknown, name: string): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value !== 'string' || value.length > 2_000)
    throw new ParseError(ParseCode.INVALID_QUERY, `"${name}" is a comma-separated list of fields.`)
  return value.split(',').filter(Boolean)
}

/**
 * The fields `keys` (`select`) keeps: a dot path (`author.name`, with `include('author')`)
 * keeps its first field, whole.
 */
function keysParam(value: unknown): string[] | undefined {
  return listParam(value, 'keys')?.map((key) => key.split('.')[0]!)
}

/** `object` without the fields `exclude` names (`excludeKeys`); its id and times stay. */
function withoutKeys(object: ParseObject, excluded: string[] | undefined): ParseObject {
  for (const key of excluded ?? []) if (key !== 'objectId' && !isTimeField(key)) delete object[key]
  return object
}

/** `order` with `_created_at` / `_updated_at` read as `createdAt` / `updatedAt`, as Parse does. */
function orderOf(order: string | undefined): string | undefined {
  return order
    ?.split(',')
    .map((key) => {
      const descending = key.startsWith('-')
      const name = descending ? key.slice(1) : key
      return `${descending ? '-' : ''}${timeAlias(name)}`
    })
    .join(',')
}

export async function queryClass(call: CompatCall, requested: string): Promise<CompatAnswer> {
  const viewer = await viewerOf(call)
  const { params } = call
  // `relation.query()` of an object the client has not fetched: the query is on the class of
  // the relation's members, which the answer names.
  const redirect = params.redirectClassNameForKey
  const target =
    typeof redirect === 'string'
      ? await call.services.schemaReads.relationTargetClass(requested, redirect)
      : undefined
  const className = target ? compatClassName(target) : requested
  const view = syncedView(call.services, className)
  const { where, condition } = await storedWhere(
    { sources: call.services, viewer, className: compatClassName },
    className,
    params.where,
  )
  const limit = wholeNumber(params.limit, 'limit', DEFAULT_LIMIT)
  const keys = view ? view.keys(keysParam(params.keys)) : keysParam(params.keys)
  await call.services.objects.assertQueryable(viewer, className, { keys })
  const include = listParam(params.include, 'include')
  const included = include && includeTree(include)
  const excluded = listParam(params.excludeKeys, 'excludeKeys')
  if (params.order !== undefined && typeof params.order !== 'string')
    throw new ParseError(ParseCode.INVALID_QUERY, '"order" is a comma-separated list of fields.')
  const order = view ? view.order(orderOf(params.order)) : orderOf(params.order)
  const found = await call.services.objects.query(viewer, className, {
    where: condition,
    whereText: where ? JSON.stringify(where) : undefined,
    order,
    limit: Math.min(limit, MAX_LIMIT),
    skip: wholeNumber(params.skip, 'skip', 0),
    count: params.count === 1 || params.count === '1' || params.count === true,
  })
  const results = found.results.map((object) =>
    withoutKeys(
      view ? view.toParse(toParseObject(object, keys)) : toParseObject(object, keys),
      excluded,
    ),
  )
  if (included) await resolveIncludes(call.services.objects, results, included, viewer)
  // Redirected, each result names its class too: the clients' `first` reads it there.
  if (target) for (const result of results) result.className = className
  return {
    body: {
      results,
      ...(found.count === undefined ? {} : { count: found.count }),
      ...(target ? { className } : {}),
    },
  }
}

export async function getFromClass(
  call: CompatCall,
  className: string,
  objectId: string,
): Promise<CompatAnswer> {
  const viewer = await viewerOf(call)
  const found = await call.services.objects.get(className, objectId, viewer)
  if (!found) throw notFound()
  const view = syncedView(call.services, className)
  const keys = keysParam(call.params.keys)
  await call.services.objects.assertQueryable(viewer, className, { keys })
  const object = withoutKeys(
    view ? view.toParse(toParseObject(found, view.keys(keys))) : toParseObject(found, keys),
    listParam(call.params.excludeKeys, 'excludeKeys'),
  )
  const include = listParam(call.params.include, 'include')
  if (include) await resolveIncludes(call.services.objects, [object], includeTree(include), viewer)
  return { body: object }
}

export async function createInClass(call: CompatCall, className: string): Promise<CompatAnswer> {
  if (className === '_User' || className === '_EthAddress')
    throw new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      `${className} rows are made by signing in with a wallet.`,
    )
  const objectId = customObjectId(call.services.config, call.params)
  assertOneGeoPoint(call.params)
  const writer = await writerOf(call)
  serverKept(className, writer)
  const creator = writer === ANY_OWNER ? (await call.session())?.user.id : writer
  const sent = applyParseWrite({}, call.params)
  const data = withDefaults(sent, await fieldRules(call.services.objects, className))
  const relations = relationChangesOf(call.params)
  if (className === '_Role') checkRoleWrite(undefined, data, relations)
  const parseDefaults = hasParseDefaults(call.services.config, className)
  const request: CreateRequest = {
    className,
    writer,
    signedOut: writer === undefined,
    openWithoutPermissions: parseDefaults,
    objectId,
    client: call.request.ip,
    ownerId: creator ?? (writer === undefined ? VISITOR_OWNER.id : MASTER_OWNER.id),
    data,
    acl: createAcl(call.params.ACL, creator, parseDefaults),
    // A change made with the master key is in the console's audit log as the console's own are.
    auditActor: auditActorOf(call, writer),
  }
  let outcome
  try {
    // A given id may be taken: written on its own, not in a group with other clients' creates.
    outcome =
      relations.length || objectId
        ? { created: await call.services.objects.createRelated(request, relations) }
        : await call.services.objects.create(request)
  } catch (error) {
    throw (className === '_Role' && duplicateRole(error, data.name)) || error
  }
  // Without an idempotency claim a create is always applied.
  const created = (outcome as { created: WireObject }).created
  return {
    status: 201,
    body: {
      objectId: created.objectId,
      createdAt: created.createdAt,
      // Defaults count as changed: the clients take them into the object they saved.
      ...changedByTrigger(sent, created.data),
    },
  }
}

/** `_JobStatus` objects are the server's record of job runs: only the master key changes them. */
function serverKept(className: string, writer: unknown) {
  if (className === JOB_STATUS && writer !== ANY_OWNER)
    throw new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      `${JOB_STATUS} objects are kept by the server.`,
    )
}

/**
 * The fields a `beforeSave` trigger set beyond what the client sent: Parse answers them, and the
 * clients take them into the object they saved.
 */
function changedByTrigger(sent: Record<string, unknown>, saved: Record<string, unknown>) {
  const changed: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(saved))
    if (!isDeepStrictEqual(sent[key], value)) changed[key] = value
  return changed
}

export async function updateInClass(
  call: CompatCall,
  className: string,
  objectId: string,
): Promise<CompatAnswer> {
  if (className === '_EthAddress')
    throw new ParseError(ParseCode.OPERATION_FORBIDDEN, '_EthAddress rows are kept by the server.')
  assertOneGeoPoint(call.params)
  const writer = await writerOf(call)
  serverKept(className, writer)
  // A user's own fields are checked against the wallets linked to that user, whoever writes.
  const checkFields = await userFieldsRule(call.services.linkedAddresses, className, objectId)
  checkRequired(call.params, await fieldRules(call.services.objects, className))
  let written: Record<string, unknown> = {}
  const { after: updated } = await call.services.objects.modify(
    {
      className,
      objectId,
      userId: writer,
      client: call.request.ip,
      auditActor: auditActorOf(call, writer),
    },
    (current) => {
      const data = checkFields(applyParseWrite(current.data, call.params))
      written = data
      const relations = relationChangesOf(call.params)
      if (className === '_Role') checkRoleWrite(current.data, data, relations)
      return {
        data,
        relations,
        ...(call.params.ACL === undefined ? {} : { acl: parseAcl(call.params.ACL) }),
      }
    },
  )
  return {
    body: {
      updatedAt: updated.updatedAt,
      ...resultsOfWrite(className, call.params, updated.data),
      ...changedByTrigger(written, updated.data),
    },
  }
}

/**
 * A change made with the master key is in the console's audit log as the console's own are,
 * written by the store in the change's transaction.
 */
const auditActorOf = (call: CompatCall, writer: unknown) =>
  writer === ANY_OWNER ? `master key (${call.request.ip})` : undefined

/** Operations whose result Parse answers: the clients take it as the field's new value. */
const ANSWERED_OPS = new Set(['Increment', 'Add', 'AddUnique', 'Remove'])

/**
 * The fields of an update whose stored value the client cannot know: results of operations, as
 * Parse answers them (a client sets a field it does not find in the answer to the operation
 * applied to nothing), and `accounts` and `ethAddress`, which the server keeps for a user.
 */
function resultsOfWrite(
  className: string,
  params: Record<string, unknown>,
  data: Record<string, unknown>,
) {
  const kept = className === '_User' ? ['accounts', 'ethAddress'] : []
  const results: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(params)) {
    const op = (value as { __op?: unknown } | null)?.__op
    // An operation on a nested key (`objectField.number`) answers its whole field: the clients
    // merge it into the field they hold.
    const field = key.split('.')[0]!
    if ((typeof op === 'string' && ANSWERED_OPS.has(op)) || kept.includes(key))
      if (field in data) results[field] = data[field]
  }
  return results
}

export async function deleteFromClass(
  call: CompatCall,
  className: string,
  objectId: string,
): Promise<CompatAnswer> {
  if (className === '_User') return destroyUser(call, objectId)
  if (className === '_EthAddress')
    throw new ParseError(ParseCode.OPERATION_FORBIDDEN, `${className} rows cannot be deleted here.`)
  const writer = await writerOf(call)
  serverKept(className, writer)
  await call.services.objects.delete({
    className,
    objectId,
    userId: writer,
    client: call.request.ip,
    auditActor: auditActorOf(call, writer),
  })
  return { body: {} }
}
