/** Web Storage's three operations, over `localStorage` or memory. */
export interface KeyValueStore {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
  /** True once the real storage has failed and values are held in memory only. */
  readonly inMemory: boolean
}

/**
 * Wraps browser storage so that it never throws: privacy modes and sandboxed frames make
 * `localStorage` (even reading the property) throw, and quota errors make writes throw. After the
 * first failure every value lives in memory for the rest of the page's life, so reads and writes
 * stay consistent with each other: the site degrades to memory, never crashes. The theme, the
 * version notice and the wallet (last connection, session hint) all keep their values through it.
 *
 * @param getStorage returns the storage to use; called inside a try, so it may throw too.
 */
export function createSafeStorage(getStorage: () => Storage | null | undefined): KeyValueStore {
  const memory = new Map<string, string>()
  let broken = false

  const fail = () => {
    broken = true
  }

  return {
    getItem(key) {
      if (!broken) {
        try {
          const storage = getStorage()
          if (storage) return storage.getItem(key)
          fail()
        } catch {
          fail()
        }
      }
      return memory.get(key) ?? null
    },
    setItem(key, value) {
      memory.set(key, value)
      if (broken) return
      try {
        const storage = getStorage()
        if (storage) storage.setItem(key, value)
        else fail()
      } catch {
        fail()
      }
    },
    removeItem(key) {
      memory.delete(key)
      if (broken) return
      try {
        getStorage()?.removeItem(key)
      } catch {
        fail()
      }
    },
    get inMemory() {
      return broken
    },
  }
}
