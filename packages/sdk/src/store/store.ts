/** A tiny observable value: what React's `useSyncExternalStore` and plain code both consume. */
export interface Store<T> {
  get(): T
  set(next: T | ((current: T) => T)): void
  subscribe(listener: (value: T, previous: T) => void): () => void
}

/** Creates a store; `set` with an identical value notifies no one. */
export function createStore<T>(initial: T): Store<T> {
  let value = initial
  const listeners = new Set<(value: T, previous: T) => void>()
  return {
    get: () => value,
    set(next) {
      const previous = value
      value = typeof next === 'function' ? (next as (current: T) => T)(value) : next
      if (Object.is(value, previous)) return
      for (const listener of [...listeners]) listener(value, previous)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
