import { badRequest } from '../errors.ts'

// An object's access control list, as Parse has it: who may read it and who may write it. Its
// keys are `*` (everyone, signed in or not), user ids and `role:<name>` (the members of that role
// and of the roles it contains). Only `true` flags are kept; `{}` lets nobody but the master key
// (and the console) in. It is stored as two lists (`read_perm`, `write_perm`) that the access
// rule compares with the viewer's own list in SQL (access.ts).

export type Acl = Record<string, { read?: true; write?: true }>

/** The most entries one ACL may have: each is compared on every read of the object. */
export const MAX_ACL_ENTRIES = 128

const ROLE_PREFIX = 'role:'
/** Role names as Parse allows them. */
export const ROLE_NAME = /^[0-9a-zA-Z_\- ]{1,128}$/

function invalid(message: string): never {
  throw badRequest(message, 'invalid_acl')
}

function checkKey(key: string): void {
  if (key === '*') return
  if (key.startsWith(ROLE_PREFIX)) {
    if (!ROLE_NAME.test(key.slice(ROLE_PREFIX.length)))
      invalid(
        `ACL entry "${key.slice(0, 80)}" names no valid role: a role name has letters, digits, spaces, "_" and "-".`,
      )
    return
  }
  if (key.length === 0 || key.length > 128 || /[\s*]/.test(key))
    invalid(`ACL entry "${key.slice(0, 80)}" is not "*", a user id or "role:<name>".`)
}

/** Checks an ACL as a client sent it and returns it with only its `true` flags. */
export function parseAcl(value: unknown): Acl {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    invalid(
      'An ACL is a JSON object: { "*": { "read": true }, "<user id>": { "read": true, "write": true } }.',
    )
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length > MAX_ACL_ENTRIES)
    invalid(
      `An ACL has at most ${MAX_ACL_ENTRIES} entries; give access to a role instead of many users.`,
    )
  const acl: Acl = {}
  for (const [key, rights] of entries) {
    checkKey(key)
    if (rights === null || typeof rights !== 'object' || Array.isArray(rights))
      invalid(`ACL entry "${key.slice(0, 80)}" must be an object such as { "read": true }.`)
    const { read, write, ...rest } = rights as { read?: unknown; write?: unknown }
    if (Object.keys(rest).length > 0)
      invalid(`ACL entry "${key.slice(0, 80)}" carries only "read" and "write".`)
    for (const [flag, on] of [
      ['read', read],
      ['write', write],
    ] as const)
      if (on !== undefined && typeof on !== 'boolean')
        invalid(`ACL entry "${key.slice(0, 80)}": "${flag}" is true or false.`)
    if (read !== true && write !== true) continue
    acl[key] = {
      ...(read === true ? { read: true } : {}),
      ...(write === true ? { write: true } : {}),
    }
  }
  return acl
}

/** The ACL's two stored lists. */
export function permsOf(acl: Acl): { readPerm: string[]; writePerm: string[] } {
  const readPerm: string[] = []
  const writePerm: string[] = []
  for (const [key, rights] of Object.entries(acl)) {
    if (rights.read) readPerm.push(key)
    if (rights.write) writePerm.push(key)
  }
  return { readPerm, writePerm }
}

/** The ACL that two stored lists mean (keys in the order they were given). */
export function aclOfPerms(readPerm: readonly string[], writePerm: readonly string[]): Acl {
  const acl: Acl = {}
  for (const key of readPerm) acl[key] = { read: true }
  for (const key of writePerm) acl[key] = { ...acl[key], write: true }
  return acl
}

/**
 * Portico's ACL for an object saved without one: its creator reads and writes it, everyone reads
 * it when `publicRead`. Narrower than Parse's default (everyone reads and writes).
 */
export const ownerAcl = (ownerId: string, publicRead: boolean): Acl => ({
  ...(publicRead ? { '*': { read: true } } : {}),
  [ownerId]: { read: true, write: true },
})

/** Whether everyone may read an object with this ACL. */
export const isPublicRead = (acl: Acl): boolean => acl['*']?.read === true

/** `acl` with everyone's read turned on or off, the rest kept. */
export function withPublicRead(acl: Acl, publicRead: boolean): Acl {
  const { '*': everyone, ...rest } = acl
  const write = everyone?.write === true
  if (!publicRead && !write) return rest
  return {
    '*': { ...(publicRead ? { read: true } : {}), ...(write ? { write: true } : {}) },
    ...rest,
  }
}
