import { describe, expect, it } from 'vitest'
import { AdaptiveRange } from './range.ts'

describe('AdaptiveRange', () => {
  it('halves on a refusal, and grows back only to below a refused size', () => {
    const range = new AdaptiveRange(10_000)
    expect(range.size).toBe(2_000)
    expect(range.failed()).toBe(true)
    expect(range.failed()).toBe(true)
    expect(range.size).toBe(500)
    range.read(500, 0)
    // 1000 was refused: it grows to three quarters of it, not back to it.
    expect(range.size).toBe(750)
    for (let i = 0; i < 30; i++) range.read(range.size, 10)
    expect(range.size).toBe(750)
  })
  it('sizes ranges to hold about the target number of logs, changing at most fourfold at once', () => {
    const range = new AdaptiveRange(100_000, 5_000)
    range.read(2_000, 100_000) // 50 logs a block
    expect(range.size).toBe(500)
    range.read(500, 25_000)
    expect(range.size).toBe(125)
    range.read(125, 6_250)
    expect(range.size).toBe(100)
    range.read(100, 10) // a quiet stretch
    expect(range.size).toBe(400)
    range.read(400, 0)
    expect(range.size).toBe(1_600)
    // A range cut short by the head keeps the size.
    range.read(3, 1)
    expect(range.size).toBe(1_600)
  })
  it('probes larger ranges again after many ranges', () => {
    const range = new AdaptiveRange(4_000)
    range.failed()
    for (let i = 0; i < 120; i++) range.read(range.size, 0)
    expect(range.size).toBe(4_000)
  })
  it('says when a single block is refused: the node is failing', () => {
    const range = new AdaptiveRange(1)
    expect(range.failed()).toBe(false)
  })
})
