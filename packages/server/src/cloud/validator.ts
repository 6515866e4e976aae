import { cloudCodeError } from '../errors.ts'
import type { WindowCounter } from '../db/cluster/cluster.ts'
import type { FieldRule, Validator, ValidatorOptions } from './registry.ts'

// Parse's validators (the third argument of `define`, `beforeSave`…): a function that throws to
// refuse, or options checked before the handler runs, refusing with Parse's code 142 and its
// messages (a rate limit with 100, as Parse Server's).

const VALIDATION_ERROR = 142
const CONNECTION_FAILED = 100

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type CloudRequest = any

const refuse = (message: string) => cloudCodeError(VALIDATION_ERROR, message)

export interface ValidateOptions {
  /** Where a validator's fields are read: a function's params, or a trigger's object. */
  fields: 'params' | 'object'
  /** What the rate limit counts under (the handler's name). */
  name: string
  counter: WindowCounter
  /** The user's role names, for `requireAnyUserRoles` / `requireAllUserRoles`. */
  roleNames: (userId: string) => Promise<string[]>
}

export async function validate(
  validator: Validator | undefined,
  request: CloudRequest,
  options: ValidateOptions,
): Promise<void> {
  if (validator === undefined) return
  if (typeof validator === 'function') {
    await validator(request)
    return
  }
  const rules: ValidatorOptions = validator
  if (rules.rateLimit) await limit(rules.rateLimit, request, options)
  if (request.master && rules.skipWithMasterKey) return
  if ((rules.requireMaster || rules.validateMasterKey) && !request.master)
    throw refuse('Validation failed. Master key is required to complete this request.')
  if (rules.requireMaster) return
  const needsUser =
    rules.requireUser || rules.requireUserKeys || rules.requireAnyUserRoles || rules.requireAllUserRoles
  if (needsUser && !request.user && !request.master)
    throw refuse('Validation failed. Please login to continue.')
  if (rules.requireUserKeys && request.user) {
    const keys = Array.isArray(rules.requireUserKeys)
      ? rules.requireUserKeys
      : Object.keys(rules.requireUserKeys)
    for (const key of keys)
      if (request.user.get(key) === undefined || request.user.get(key) === null)
        throw refuse(`Validation failed. Please set data for ${key} on your account.`)
  }
  if ((rules.requireAnyUserRoles || rules.requireAllUserRoles) && request.user) {
    const held = new Set(await options.roleNames(String(request.user.id)))
    const listed = async (value: ValidatorOptions['requireAnyUserRoles']) =>
      typeof value === 'function' ? await value() : (value ?? [])
    const any = await listed(rules.requireAnyUserRoles)
    if (any.length && !any.some((role) => held.has(role)))
      throw refuse('Validation failed. User does not match the required roles.')
    const all = await listed(rules.requireAllUserRoles)
    if (!all.every((role) => held.has(role)))
      throw refuse('Validation failed. User does not match all the required roles.')
  }
  if (rules.fields) checkFields(rules.fields, request, options.fields)
}

function checkFields(fields: NonNullable<ValidatorOptions['fields']>, request: CloudRequest, where: 'params' | 'object') {
  const object = where === 'object' ? request.object : undefined
  const read = (key: string) => (object ? object.get(key) : request.params?.[key])
  const write = (key: string, value: unknown) => {
    if (object) object.set(key, value)
    else if (request.params) request.params[key] = value
  }
  const entries: [string, FieldRule][] = Array.isArray(fields)
    ? fields.map((key) => [key, { required: true }])
    : Object.entries(fields).map(([key, rule]) => [
        key,
        rule && typeof rule === 'object' && !Array.isArray(rule) ? (rule as FieldRule) : { type: rule },
      ])
  for (const [key, rule] of entries) {
    let value = read(key)
    if ((value === undefined || value === null) && rule.default !== undefined) {
      value = typeof rule.default === 'function' ? rule.default(request) : rule.default
      write(key, value)
    }
    if (rule.constant && object && !object.isNew?.() && request.original)
      object.set(key, request.original.get(key))
    if (value === undefined || value === null) {
      if (rule.required) throw refuse(rule.error ?? `Validation failed. Please specify data for ${key}.`)
      continue
    }
    if (rule.type !== undefined) {
      const expected = typeName(rule.type)
      if (expected && actualType(value) !== expected)
        throw refuse(rule.error ?? `Validation failed. Invalid type for ${key}. Expected: ${expected}`)
    }
    if (rule.options !== undefined) {
      const ok =
        typeof rule.options === 'function'
          ? rule.options(value) !== false
          : Array.isArray(rule.options)
            ? rule.options.includes(value)
            : rule.options === value
      if (!ok)
        throw refuse(
          rule.error ??
            `Validation failed. Invalid option for ${key}. Expected: ${Array.isArray(rule.options) ? rule.options.join(', ') : String(rule.options)}`,
        )
    }
  }
}

/** The name Parse compares a field's type with: `String`, `Number`, `Boolean`, `Array`, `Object`… */
function typeName(type: unknown): string | undefined {
  if (typeof type === 'function') return (type as { name: string }).name.toLowerCase()
  if (typeof type === 'string') return type.toLowerCase()
  return undefined
}

function actualType(value: unknown): string {
  if (Array.isArray(value)) return 'array'
  if (value instanceof Date) return 'date'
  return (typeof value).toLowerCase()
}

async function limit(
  rule: NonNullable<ValidatorOptions['rateLimit']>,
  request: CloudRequest,
  options: ValidateOptions,
) {
  if (request.master) return
  const windowMs = Math.max(1, Number(rule.requestTimeWindow ?? 60_000))
  const max = Math.max(1, Number(rule.requestCount ?? 100))
  const who = request.user?.id ? `user:${request.user.id}` : `ip:${request.ip}`
  const { count } = await options.counter.add(`cloud:${options.name}:${who}`, 1, windowMs, max)
  if (count > max)
    throw cloudCodeError(CONNECTION_FAILED, rule.errorResponseMessage ?? 'Too many requests.')
}
