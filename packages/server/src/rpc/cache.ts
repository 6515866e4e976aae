/**
 * A least-recently-used map of answers that never change (see `isCacheable`), so entries need no
 * expiry. Bounded in bytes, not only in entries: a few large answers (blocks with their
 * transactions, receipts of busy blocks) must not add up to gigabytes. An answer larger than
 * `maxEntryBytes` is not cached at all. Sizes are the length of the answer's JSON text, which is
 * what the cache holds.
 */
export class AnswerCache {
  readonly #entries = new Map<string, { value: unknown; bytes: number }>()
  #bytes = 0

  constructor(
    readonly maxEntries = 10_000,
    readonly maxBytes = 64 * 1024 * 1024,
    readonly maxEntryBytes = 1024 * 1024,
  ) {}

  get(key: string): unknown {
    const entry = this.#entries.get(key)
    if (entry === undefined) return undefined
    this.#entries.delete(key) // re-insert: Map order is the recency order
    this.#entries.set(key, entry)
    return entry.value
  }

  set(key: string, value: unknown): void {
    const bytes = key.length + (JSON.stringify(value)?.length ?? 0)
    this.#forget(key)
    if (bytes > this.maxEntryBytes) return
    this.#entries.set(key, { value, bytes })
    this.#bytes += bytes
    while (this.#bytes > this.maxBytes || this.#entries.size > this.maxEntries) {
      this.#forget(this.#entries.keys().next().value!)
    }
  }

  #forget(key: string): void {
    const entry = this.#entries.get(key)
    if (!entry) return
    this.#entries.delete(key)
    this.#bytes -= entry.bytes
  }

  get size(): number {
    return this.#entries.size
  }

  /** Bytes held, as counted for the bound. */
  get bytes(): number {
    return this.#bytes
  }
}
