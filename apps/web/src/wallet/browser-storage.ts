/** The storage shape the Portico client uses (a subset of Web Storage). */
export interface WalletStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/**
 * `localStorage` that never throws (privacy modes, sandboxed frames, full quota): the wallet
 * then simply does not remember the last connection across reloads.
 */
export function safeLocalStorage(getStorage: () => Storage): WalletStorage {
  const attempt = <T>(run: (storage: Storage) => T, fallback: T): T => {
    try {
      return run(getStorage())
    } catch {
      return fallback
    }
  }
  return {
    getItem: (key) => attempt((s) => s.getItem(key), null),
    setItem: (key, value) => attempt((s) => s.setItem(key, value), undefined),
    removeItem: (key) => attempt((s) => s.removeItem(key), undefined),
  }
}
