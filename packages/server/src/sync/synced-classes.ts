import { HttpError } from '../errors.ts'
import { ANY_OWNER, type Changer } from '../objects/access.ts'
import type { ClassRules } from '../objects/class-rules.ts'
import { integerFieldsOf } from './decode.ts'
import type { Sync } from './definition.ts'

// The classes the contract-event syncs fill. Their rows are the chain's events: only the sync
// writes them (through the store's own writes, `ObjectStore.transaction`), besides the console
// (`ANY_OWNER`), whose every change is audited. Anyone else's create, change or delete, on any
// surface (the API, its batch, the compatibility mount, an import) is refused by the store, so a
// made-up "event" can never be read as a real one. Their wide integers compare as numbers.

/** The store's rules for the classes `syncs` fill. */
export function syncedClassRules(syncs: readonly Sync[]): ClassRules {
  const owners = new Map<string, string>()
  const integers = new Map<string, Set<string>>()
  for (const sync of syncs) {
    owners.set(sync.className, sync.name)
    const fields = integers.get(sync.className) ?? new Set<string>()
    for (const field of integerFieldsOf(sync.events)) fields.add(field)
    integers.set(sync.className, fields)
  }
  const none: ReadonlySet<string> = new Set()
  return {
    assertWritable(className: string, writer: Changer | undefined) {
      const sync = owners.get(className)
      if (sync === undefined || writer === ANY_OWNER) return
      throw new HttpError(
        403,
        'synced_class',
        `${className} is filled by the contract sync "${sync}" alone: its rows are the chain's events and cannot be created, changed or deleted here.`,
      )
    },
    integerFields: (className) => integers.get(className) ?? none,
  }
}
