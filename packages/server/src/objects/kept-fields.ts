import { isDeepStrictEqual } from 'node:util'
import type { KeptFields } from './class-rules.ts'
import type { WireObject } from './rows.ts'
import type { Document } from './wire.ts'

// A change of an object whose class keeps some fields to the server (a synced row's event
// fields, class-rules.ts) may change its other fields, as its ACL lets the caller, but never
// those: whoever asks, the master key and the console included, and whatever a `beforeSave`
// returns. The change is checked on the object as the caller reads it before anything else (so
// the refusal says why), and again on the locked row it is written to (what counts).

/** Throws `kept`'s refusal when `after` sets, changes or removes one of its fields. */
export function assertKeptFields(
  kept: KeptFields | undefined,
  before: Document,
  after: Document | undefined,
): void {
  if (!kept || !after) return
  for (const field of kept.names)
    if (
      Object.hasOwn(before, field) !== Object.hasOwn(after, field) ||
      !isDeepStrictEqual(before[field], after[field])
    )
      throw kept.refusal(field)
}

/** `assertKeptFields` on the change `modify` makes to the object as `read` finds it (if at all). */
export async function assertKeptChange(
  kept: KeptFields | undefined,
  read: () => Promise<WireObject | null>,
  modify: (current: WireObject) => { data?: Document | undefined },
): Promise<void> {
  if (!kept) return
  const current = await read()
  if (current) assertKeptFields(kept, current.data, modify(current).data)
}
