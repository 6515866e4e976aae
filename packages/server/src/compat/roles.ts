import { ROLE_NAME } from '../objects/acl.ts'
import type { RelationChange } from '../objects/relations.ts'
import type { Document } from '../objects/wire.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// `_Role` objects, as Parse keeps them: a unique name given once, an ACL saying who may change
// the role (and so its members), and two relations: `users`, the users in it, and `roles`, the
// roles whose members are in it too. A user's roles count in every access decision (access.ts).

const DUPLICATE_VALUE = 137

/** The checks of a role's write: its name on create, never after; members of the right class. */
export function checkRoleWrite(
  before: Document | undefined,
  after: Document,
  relations: readonly RelationChange[],
): void {
  if (before === undefined) {
    if (typeof after.name !== 'string' || !ROLE_NAME.test(after.name))
      throw new ParseError(
        ParseCode.INCORRECT_TYPE,
        'A role needs a name of letters, digits, spaces, "_" and "-" (at most 128).',
      )
  } else if (after.name !== before.name) {
    throw new ParseError(
      ParseCode.INCORRECT_TYPE,
      "A role's name can only be set before it has been saved.",
    )
  }
  for (const change of relations) {
    const expected = { users: '_User', roles: '_Role' }[change.field]
    if (expected !== undefined && change.targetClass !== expected)
      throw new ParseError(
        ParseCode.INCORRECT_TYPE,
        `A role's "${change.field}" holds ${expected} objects only.`,
      )
  }
}

/** A second role of the same name, as Parse answers it. */
export function duplicateRole(error: unknown, name: unknown): ParseError | undefined {
  const code = (error as { code?: unknown; cause?: { code?: unknown } })?.code
  const causeCode = (error as { cause?: { code?: unknown } })?.cause?.code
  if (code !== '23505' && causeCode !== '23505') return undefined
  return new ParseError(DUPLICATE_VALUE, `Cannot add duplicate role name of ${String(name)}`)
}
