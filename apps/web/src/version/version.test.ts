import { describe, expect, it } from 'vitest'
import { compareVersions } from './version.ts'

describe('compareVersions', () => {
  it.each([
    ['1.5.9', '1.5.9', 0],
    ['1.5.9', '1.5.10', -1],
    ['1.10.0', '1.9.9', 1],
    ['2.0.0', '1.99.99', 1],
    ['1.5', '1.5.0', 0],
    ['1.6.0-beta.1', '1.6.0', 0],
  ])('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign)
  })
})
