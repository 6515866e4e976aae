import { HttpError } from '../errors.ts'
import { ROLE_NAME } from '../objects/acl.ts'
import type { RelationChange } from '../objects/relations.ts'
import type { Document } from '../objects/wire.ts'

// `_Role` objects, as Parse keeps them: a unique name given once, an ACL saying who may change
// the role (and so its members), and two relations: `users`, the users in it, and `roles`, the
// roles whose members are in it too. A user's roles count in every access decision
// (objects/access.ts). These rules are the same wherever a role is written: `/api/roles`, the
// console and the compatibility mount (which answers them as Parse errors).

export const ROLE_CLASS = '_Role'

/** The class each relation of a role holds. */
export const ROLE_RELATIONS = { users: '_User', roles: ROLE_CLASS } as const

/** What is wrong with a role's write (its name on create, never after; members of the right class). */
export function roleWriteProblem(
  before: Document | undefined,
  after: Document,
  relations: readonly RelationChange[],
): string | undefined {
  if (before === undefined) {
    if (typeof after.name !== 'string' || !ROLE_NAME.test(after.name))
      return 'A role needs a name of letters, digits, spaces, "_" and "-" (at most 128).'
  } else if (after.name !== before.name) {
    return "A role's name can only be set before it has been saved."
  }
  for (const change of relations) {
    const expected = (ROLE_RELATIONS as Record<string, string>)[change.field]
    if (expected !== undefined && change.targetClass !== expected)
      return `A role's "${change.field}" holds ${expected} objects only.`
  }
  return undefined
}

/** Whether `error` is the database refusing a second role of the same name (a unique index). */
export function isDuplicateName(error: unknown): boolean {
  if (error instanceof HttpError) return error.code === 'role_name_taken'
  const code = (error as { code?: unknown } | undefined)?.code
  const causeCode = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code
  return code === '23505' || causeCode === '23505'
}
