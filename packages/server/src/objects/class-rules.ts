import type { Changer } from './access.ts'

// What some classes ask of the store beyond the access rule, told to it by the part of the
// server that defines them (the contract-event syncs, sync/synced-classes.ts): who may write
// their objects at all, and which of their fields hold integers written as decimal strings.

export interface ClassRules {
  /**
   * Throws the refusal when `writer` may not create, change or delete objects of `className`.
   * `writer` is a user id, `ANY_OWNER` (the console), or undefined for a client that is not
   * signed in or rows written as given (an import).
   */
  assertWritable(className: string, writer: Changer | undefined): void
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
  integerFields: () => none,
}
