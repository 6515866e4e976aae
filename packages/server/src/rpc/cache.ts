/**
 * A bounded map that forgets the least recently used entry when full. Holds answers that never
 * change (see `isCacheable`), so entries need no expiry.
 */
export class AnswerCache {
  readonly #entries = new Map<string, unknown>()
  constructor(readonly maxEntries = 10_000) {}

  get(key: string): unknown {
    const value = this.#entries.get(key)
    if (value === undefined) return undefined
    this.#entries.delete(key) // re-insert: Map order is the recency order
    this.#entries.set(key, value)
    return value
  }

  set(key: string, value: unknown): void {
    this.#entries.delete(key)
    this.#entries.set(key, value)
    if (this.#entries.size > this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!)
    }
  }

  get size(): number {
    return this.#entries.size
  }
}
