/**
 * The number of blocks per `eth_getLogs`, fitted to what the node accepts: halved when it
 * refuses a range (too many blocks or results, a time-out), doubled again after three ranges in
 * a row succeed, but not back up to a size it refused until many ranges have passed since (its
 * limits may change, so the size is probed again then), never above `max`.
 */
export class AdaptiveRange {
  private streak = 0
  /** The smallest size refused lately. */
  private refused = Number.POSITIVE_INFINITY
  size: number

  constructor(readonly max: number) {
    this.size = Math.min(max, 2_000)
  }

  succeeded(): void {
    this.streak++
    if (this.streak >= 100) this.refused = Number.POSITIVE_INFINITY
    if (this.streak % 3 !== 0) return
    const grown = Math.min(this.max, this.size * 2)
    this.size = grown < this.refused ? grown : Math.max(this.size, Math.floor(this.refused * 0.75))
  }

  /** A refused range; false when it was one block already (the node is failing, not refusing). */
  failed(): boolean {
    this.streak = 0
    this.refused = Math.min(this.refused, this.size)
    if (this.size === 1) return false
    this.size = Math.max(1, Math.floor(this.size / 2))
    return true
  }
}
