import type { Sync } from '../sync/definition.ts'

// What a class's objects get when nothing else is said: who may create them, and the ACL a new
// one starts with. Documents carry their own ACLs; these are the class-level rules behind them,
// shown in the console beside the objects.

export interface ClassDefaults {
  className: string
  /** Who creates, changes and deletes objects of the class (besides the console). */
  writers: 'users' | 'sync'
  /** The contract sync that alone writes a synced class. */
  sync: string | null
  /** A new object's ACL when its writer sends none. */
  newObject: {
    /** The user who creates it. */
    creator: 'read-write' | 'none'
    /** Everyone: `on-request` when the writer asks for public read (`publicRead`). */
    public: 'read' | 'none' | 'on-request'
  }
}

/** The defaults of `className`, given the syncs this server runs. */
export function classDefaults(className: string, syncs: readonly Sync[]): ClassDefaults {
  const sync = syncs.find((s) => s.className === className)
  if (sync) {
    // Rows are owned by the sync's own user and readable by all only if the sync says so.
    return {
      className,
      writers: 'sync',
      sync: sync.name,
      newObject: { creator: 'none', public: sync.publicRead ? 'read' : 'none' },
    }
  }
  return {
    className,
    writers: 'users',
    sync: null,
    newObject: { creator: 'read-write', public: 'on-request' },
  }
}
