import type { RelationChange } from '../objects/relations.ts'
import type { Document } from '../objects/wire.ts'
import { isDuplicateName, roleWriteProblem } from '../roles/rules.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// The role rules (roles/rules.ts), answered as Parse answers them.

const DUPLICATE_VALUE = 137

/** The checks of a role's write: its name on create, never after; members of the right class. */
export function checkRoleWrite(
  before: Document | undefined,
  after: Document,
  relations: readonly RelationChange[],
): void {
  const problem = roleWriteProblem(before, after, relations)
  if (problem) throw new ParseError(ParseCode.INCORRECT_TYPE, problem)
}

/** A second role of the same name, as Parse answers it. */
export function duplicateRole(error: unknown, name: unknown): ParseError | undefined {
  if (!isDuplicateName(error)) return undefined
  return new ParseError(DUPLICATE_VALUE, `Cannot add duplicate role name of ${String(name)}`)
}
