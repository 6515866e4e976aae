// What the console shows of the Web3 API: per function name, how often this process answered it,
// how often that was a refusal or failure, and how long answers took. Bounded by the names the
// API has (a name it does not have is never counted).

export interface EndpointStats {
  name: string
  calls: number
  errors: number
  totalSeconds: number
  maxSeconds: number
}

export class Web3ApiStats {
  readonly #byName = new Map<string, EndpointStats>()
  readonly since = new Date()

  record(name: string, ok: boolean, seconds: number): void {
    let stats = this.#byName.get(name)
    if (!stats) {
      stats = { name, calls: 0, errors: 0, totalSeconds: 0, maxSeconds: 0 }
      this.#byName.set(name, stats)
    }
    stats.calls++
    if (!ok) stats.errors++
    stats.totalSeconds += seconds
    stats.maxSeconds = Math.max(stats.maxSeconds, seconds)
  }

  /** Every name answered so far, the most called first. */
  list(): EndpointStats[] {
    return [...this.#byName.values()]
      .map((stats) => ({ ...stats }))
      .sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name))
  }
}
