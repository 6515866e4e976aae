import { badRequest } from '../errors.ts'

// Class and field names reach SQL only as bound parameters, but they are still validated so
// that stored documents stay addressable and error messages stay clear.

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/

/** Names of the object envelope; a document field cannot take them. */
export const RESERVED_FIELDS: ReadonlySet<string> = new Set([
  'objectId',
  'className',
  'createdAt',
  'updatedAt',
  'owner',
  'publicRead',
  'ACL',
])

export function isValidName(name: unknown): name is string {
  return typeof name === 'string' && NAME.test(name)
}

/**
 * Classes the Moralis v1 / Parse compatibility mount keeps for its users, their addresses and roles.
 * They are not reachable under `/api` (a class name there starts with a letter), but pointers may
 * name them.
 */
export const SYSTEM_CLASSES: ReadonlySet<string> = new Set(['_User', '_EthAddress', '_Role'])

/** A class a pointer may name: an ordinary class or a system class. */
export function isPointerClass(name: unknown): name is string {
  return isValidName(name) || (typeof name === 'string' && SYSTEM_CLASSES.has(name))
}

/** Throws 400 `invalid_class_name` unless `name` is a letter then up to 63 letters, digits or `_`. */
export function assertClassName(name: unknown): string {
  if (!isValidName(name)) {
    throw badRequest(
      'Class names start with a letter and contain only letters, digits and _ (at most 64).',
      'invalid_class_name',
    )
  }
  return name
}

/**
 * Classes the compatibility mount keeps for itself that the console still shows and edits:
 * Parse Config's parameters (`_GlobalConfig`) and the classes' permissions (`_SCHEMA`).
 */
const CONSOLE_CLASSES: ReadonlySet<string> = new Set(['_GlobalConfig', '_SCHEMA'])

/** Like `assertClassName`, but also the system classes: for the server's own tools (console, import). */
export function assertStoredClassName(name: unknown): string {
  return isPointerClass(name) || CONSOLE_CLASSES.has(name as string)
    ? (name as string)
    : assertClassName(name)
}

/** Throws 400 `invalid_field_name` for a name a document field cannot have. */
export function assertFieldName(name: string): string {
  if (!isValidName(name) || RESERVED_FIELDS.has(name)) {
    throw badRequest(
      `Invalid field name "${name.slice(0, 80)}": fields start with a letter, contain only letters, digits and _ (at most 64), and cannot be one of ${[...RESERVED_FIELDS].join(', ')}.`,
      'invalid_field_name',
    )
  }
  return name
}

/** The class of cloud code's job runs (Parse Server's name): kept by the server. */
export const JOB_STATUS = '_JobStatus'
