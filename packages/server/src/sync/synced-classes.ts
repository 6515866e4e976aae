import { syncedRowFields } from '@portico/sdk/wire'
import { HttpError } from '../errors.ts'
import type { ClassRules, KeptFields } from '../objects/class-rules.ts'
import { v1NamesOf } from './v1-names.ts'
import { fieldFor, integerFieldsOf } from './decode.ts'
import type { Sync } from './definition.ts'

// The classes the contract-event syncs fill. A row's existence and its event fields (the
// event's arguments, where and when it happened, whether it is confirmed) are the chain's: only
// the sync writes them (through the store's own writes, `ObjectStore.transaction`). No one else
// creates or deletes a row, on any surface (the API, its batch, the compatibility mount, the
// console, an import), the master key included, and no one else sets, changes or removes an
// event field, under its own name or the name v1 apps read it by, so a made-up "event" can
// never be read as a real one. Fields an app adds to a row (a marketplace's `sold`) are the
// app's: written by those the row's ACL lets write it. Their wide integers compare as numbers.

/** The store's rules for the classes `syncs` fill. */
export function syncedClassRules(syncs: readonly Sync[]): ClassRules {
  const owners = new Map<string, string>()
  const integers = new Map<string, Set<string>>()
  const kept = new Map<string, KeptFields>()
  for (const sync of syncs) {
    owners.set(sync.className, sync.name)
    const fields = integers.get(sync.className) ?? new Set<string>()
    for (const field of integerFieldsOf(sync.events)) fields.add(field)
    integers.set(sync.className, fields)
    const names = new Set(kept.get(sync.className)?.names)
    const stored = [
      ...syncedRowFields,
      ...sync.events.flatMap((event) => event.inputs.map((input, i) => fieldFor(input.name, i))),
    ]
    for (const field of stored) for (const name of [field, ...v1NamesOf(field)]) names.add(name)
    kept.set(sync.className, {
      names,
      refusal: (field) =>
        refused(
          `${field} is an event field of ${sync.className}, filled by the contract sync "${sync.name}" alone: the chain's events cannot be changed here (fields of your own on its rows can).`,
        ),
    })
  }
  const none: ReadonlySet<string> = new Set()
  return {
    assertWritable(className: string) {
      const sync = owners.get(className)
      if (sync === undefined) return
      throw refused(
        `${className} is filled by the contract sync "${sync}" alone: its rows are the chain's events and cannot be created or deleted here.`,
      )
    },
    keptFields: (className) => kept.get(className),
    integerFields: (className) => integers.get(className) ?? none,
  }
}

const refused = (message: string) => new HttpError(403, 'synced_class', message)
