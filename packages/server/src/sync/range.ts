/** Logs a range is sized to hold: enough to make a commit's fixed cost small, few enough to
 * keep memory flat (a range's rows are held until they are written). */
export const TARGET_LOGS = 2_000

/**
 * The same on the embedded database, which runs in the server's own thread and memory: there a
 * statement of 2,000 rows is over a megabyte of JSON copied into it and parsed. Inserting
 * 100,000 rows in statements of 500 instead of 2,000 peaked some 80 MB lower, at the same speed,
 * in a bench of the embedded database alone (in the whole server's, the difference was lost in
 * its other memory).
 */
export const EMBEDDED_TARGET_LOGS = 500

/**
 * The number of blocks per `eth_getLogs`, fitted to the contract and the node: after each range,
 * the next is sized to hold about `targetLogs` logs at the density just seen (growing or
 * shrinking at most fourfold at once); halved when the node refuses a range (too many blocks or
 * results, a time-out), and not back up to a size it refused until many ranges have passed since
 * (its limits may change, so the size is probed again then); never above `max`.
 */
export class AdaptiveRange {
  private sinceRefusal = 0
  /** The smallest size refused lately. */
  private refused = Number.POSITIVE_INFINITY
  size: number

  constructor(
    readonly max: number,
    readonly targetLogs = TARGET_LOGS,
  ) {
    this.size = Math.min(max, 2_000)
  }

  /** A range of `blocks` blocks was read whole; it held `logs` logs. */
  read(blocks: number, logs: number): void {
    this.sinceRefusal++
    if (this.sinceRefusal >= 100) this.refused = Number.POSITIVE_INFINITY
    const fitted = logs === 0 ? blocks * 4 : Math.floor((blocks * this.targetLogs) / logs)
    let next = Math.max(Math.floor(blocks / 4), Math.min(blocks * 4, fitted))
    // A range cut short by the head says little about the density: do not shrink for it.
    if (blocks < this.size && logs < this.targetLogs) next = Math.max(next, this.size)
    next = Math.min(next, this.max)
    if (next >= this.refused) next = Math.floor(this.refused * 0.75)
    this.size = Math.max(1, next)
  }

  /** A refused range; false when it was one block already (the node is failing, not refusing). */
  failed(): boolean {
    this.sinceRefusal = 0
    this.refused = Math.min(this.refused, this.size)
    if (this.size === 1) return false
    this.size = Math.max(1, Math.floor(this.size / 2))
    return true
  }
}
