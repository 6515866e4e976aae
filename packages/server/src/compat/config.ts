import { HttpError } from '../errors.ts'
import { ANY_OWNER } from '../objects/access.ts'
import { normaliseValue } from '../objects/wire.ts'
import type { CompatAnswer, CompatCall } from './call.ts'
import { MASTER_OWNER } from './master-key.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// `Parse.Config`: parameters every client reads (`GET config`) and the master key sets
// (`PUT config`), as Parse Server keeps them: one object of the class `_GlobalConfig` (id "1")
// holding `params` and `masterKeyOnly` (parameters only the master key reads). Its ACL lets no
// one but the server read or write it, and the mount's class routes refuse the class: it is
// reached through these routes, and edited in the console's object browser.

const CLASS = '_GlobalConfig'
const ID = '1'
/** Most parameters the config holds. */
const MAX_PARAMS = 200

type Params = Record<string, unknown>

interface Stored {
  params: Params
  masterKeyOnly: Record<string, boolean>
}

const plainObject = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}

/** Makes the config's object, empty, unless it is there: the console then lists it to edit. */
async function ensureStored(call: CompatCall): Promise<void> {
  // Its owner is the master key's user, who exists whether or not a master key is set.
  await call.services.masterOwner.ensure()
  const now = new Date()
  await call.services.objects.insertAbsent([
    {
      className: CLASS,
      id: ID,
      ownerId: MASTER_OWNER.id,
      acl: {},
      data: { params: {}, masterKeyOnly: {} },
      createdAt: now,
      updatedAt: now,
    },
  ])
}

/**
 * The stored config, made empty by the first read. The console edits it as an object, so each
 * part is read defensively.
 */
async function stored(call: CompatCall): Promise<Stored> {
  const read = () => call.services.objects.readAsServer({ className: CLASS, objectId: ID })
  let found = await read()
  if (!found) {
    await ensureStored(call)
    found = await read()
  }
  const flags = plainObject(found?.data.masterKeyOnly)
  return {
    params: plainObject(found?.data.params),
    masterKeyOnly: Object.fromEntries(
      Object.entries(flags).filter((entry): entry is [string, true] => entry[1] === true),
    ),
  }
}

/** `GET config`: the parameters, without those only the master key reads unless it is sent. */
export async function getConfig(call: CompatCall): Promise<CompatAnswer> {
  const { params, masterKeyOnly } = await stored(call)
  if (call.master) return { body: { params, masterKeyOnly } }
  const open = Object.fromEntries(Object.entries(params).filter(([key]) => !masterKeyOnly[key]))
  return { body: { params: open } }
}

const incorrect = (message: string) => new ParseError(ParseCode.INCORRECT_TYPE, message)

function objectParam(value: unknown, name: string): Record<string, unknown> {
  if (value === undefined) return {}
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw incorrect(`"${name}" must be an object.`)
  for (const key of Object.keys(value))
    if (key === '' || key.length > 128 || key === '__proto__')
      throw new ParseError(
        ParseCode.INVALID_KEY_NAME,
        `Invalid config parameter name in "${name}".`,
      )
  return value as Record<string, unknown>
}

const isDelete = (value: unknown) => (value as { __op?: unknown } | null)?.__op === 'Delete'

/**
 * `PUT config { params, masterKeyOnly }` with the master key: each parameter sent is set (or
 * removed with `{ "__op": "Delete" }`), the others are kept, as in Parse Server.
 */
export async function putConfig(call: CompatCall): Promise<CompatAnswer> {
  if (!call.master)
    throw new ParseError(ParseCode.OPERATION_FORBIDDEN, 'Only the master key changes the config.')
  const sent = objectParam(call.params.params, 'params')
  const flags = objectParam(call.params.masterKeyOnly, 'masterKeyOnly')
  const changes: Params = {}
  for (const [key, value] of Object.entries(sent)) {
    try {
      changes[key] = isDelete(value) ? undefined : normaliseValue(value, key)
    } catch (error) {
      if (error instanceof HttpError) throw incorrect(error.message)
      throw error
    }
  }
  for (const [key, value] of Object.entries(flags))
    if (typeof value !== 'boolean') throw incorrect(`masterKeyOnly.${key} must be true or false.`)

  const { objects } = call.services
  // Made once, empty, by the first read or change; a change is applied under the row's lock.
  await stored(call)
  await objects.modify({ className: CLASS, objectId: ID, userId: ANY_OWNER }, (current) => {
    const params: Params = { ...(current.data.params as Params | undefined) }
    const masterKeyOnly: Record<string, boolean> = {
      ...(current.data.masterKeyOnly as Record<string, boolean> | undefined),
    }
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) {
        delete params[key]
        delete masterKeyOnly[key]
      } else params[key] = value
    }
    for (const [key, value] of Object.entries(flags))
      if (key in params) {
        if (value) masterKeyOnly[key] = true
        else delete masterKeyOnly[key]
      }
    if (Object.keys(params).length > MAX_PARAMS)
      throw incorrect(`The config holds at most ${MAX_PARAMS} parameters.`)
    return { data: { params, masterKeyOnly } }
  })
  return { body: { result: true } }
}
