import { describe, expect, it } from 'vitest'
import { AdaptiveRange } from './range.ts'

describe('AdaptiveRange', () => {
  it('halves on a refusal, grows after three successes, and stays below a refused size', () => {
    const range = new AdaptiveRange(10_000)
    expect(range.size).toBe(2_000)
    expect(range.failed()).toBe(true)
    expect(range.failed()).toBe(true)
    expect(range.size).toBe(500)
    for (let i = 0; i < 3; i++) range.succeeded()
    // 1000 was refused: it grows to three quarters of it, not back to it.
    expect(range.size).toBe(750)
    for (let i = 0; i < 30; i++) range.succeeded()
    expect(range.size).toBe(750)
  })
  it('probes larger ranges again after many successes', () => {
    const range = new AdaptiveRange(4_000)
    range.failed()
    for (let i = 0; i < 120; i++) range.succeeded()
    expect(range.size).toBe(4_000)
  })
  it('says when a single block is refused: the node is failing', () => {
    const range = new AdaptiveRange(1)
    expect(range.failed()).toBe(false)
  })
})
