/** Work that keeps something current (a timer, a subscription) until `stop()`. */
export interface Watch {
  stop(): void
}

/**
 * Work shared by every component that needs the same thing: started by the first of them,
 * stopped when the last one leaves, one timer or subscription however many components there
 * are in between.
 */
export interface Watchers {
  /** Starts `key`'s watch unless it runs already; call the returned function to leave it. */
  watch(key: string, start: () => Watch): () => void
  /** The running watch of `key`, as `start` made it. */
  get<W extends Watch>(key: string): W | undefined
}

export function createWatchers(): Watchers {
  const running = new Map<string, { watch: Watch; count: number }>()
  return {
    watch(key, start) {
      let entry = running.get(key)
      if (!entry) {
        entry = { watch: start(), count: 0 }
        running.set(key, entry)
      }
      const joined = entry
      joined.count++
      let left = false
      return () => {
        if (left) return
        left = true
        if (--joined.count > 0) return
        running.delete(key)
        joined.watch.stop()
      }
    },
    get: <W extends Watch>(key: string) => running.get(key)?.watch as W | undefined,
  }
}
