import type { HttpError } from '../errors.ts'
import type { Changer } from './access.ts'

// What some classes ask of the store beyond the access rule, told to it by the part of the
// server that defines them (the contract-event syncs, sync/synced-classes.ts): who may create and
// delete their objects at all, the fields of their objects no caller changes, and which of their
// fields hold integers written as decimal strings.

/** Fields of a class's objects that no caller sets, changes or removes, with its refusal. */
export interface KeptFields {
  names: ReadonlySet<string>
  refusal(field: string): HttpError
}

export interface ClassRules {
  /**
   * Throws the refusal when `writer` may not create or delete objects of `className` (or import
   * them), or change them when the class keeps no fields (`keptFields`). `writer` is a user id,
   * `ANY_OWNER` (the console, the master key), or undefined for a client that is not signed in or
   * rows written as given (an import).
   */
  assertWritable(className: string, writer: Changer | undefined): void
  /** The fields of `className`'s objects only the server writes; undefined for none. */
  keptFields(className: string): KeptFields | undefined
  /**
   * Document fields of `className` that hold integers as decimal strings (wider than a
   * JavaScript number is exact): queries compare and sort them as numbers (integer-fields.ts).
   */
  integerFields(className: string): ReadonlySet<string>
}

const none: ReadonlySet<string> = new Set()

/** No class has rules of its own. */
export const noClassRules: ClassRules = {
  assertWritable() {},
  keptFields: () => undefined,
  integerFields: () => none,
}
