import { describe, expect, it } from 'vitest'
import { valueAxis } from './scale.ts'

describe('valueAxis', () => {
  it('puts the top gridline at or above the highest bar, on a round step', () => {
    expect(valueAxis(127)).toEqual({ top: 150, step: 50, ticks: [0, 50, 100, 150] })
    expect(valueAxis(100)).toEqual({ top: 100, step: 25, ticks: [0, 25, 50, 75, 100] })
    expect(valueAxis(3)).toEqual({ top: 4, step: 1, ticks: [0, 1, 2, 3, 4] })
    expect(valueAxis(9)).toEqual({ top: 9, step: 3, ticks: [0, 3, 6, 9] })
  })

  it('never ends below the highest value, whatever it is', () => {
    for (let highest = 0; highest <= 5000; highest += 7) {
      const { top, ticks } = valueAxis(highest)
      expect(top).toBeGreaterThanOrEqual(highest)
      expect(ticks.at(-1)).toBe(top)
      expect(ticks.length).toBeLessThanOrEqual(7)
    }
  })
})
