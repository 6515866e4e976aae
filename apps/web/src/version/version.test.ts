import { describe, expect, it } from 'vitest'
import { compareVersions, versionNotice } from './version.ts'

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

describe('versionNotice', () => {
  const base = { current: '1.5.9', latest: '1.5.9', minimum: '1.0.0', dismissed: null }

  it('is silent when the SDK is the latest (or newer)', () => {
    expect(versionNotice(base)).toBeNull()
    expect(versionNotice({ ...base, current: '1.6.0' })).toBeNull()
  })

  it('shows an outdated notice until that release is dismissed', () => {
    const newer = { ...base, latest: '1.6.0' }
    expect(versionNotice(newer)).toEqual({ kind: 'outdated', current: '1.5.9', latest: '1.6.0' })
    expect(versionNotice({ ...newer, dismissed: '1.6.0' })).toBeNull()
    // A dismissal of an older release does not hide the next one.
    expect(versionNotice({ ...newer, latest: '1.7.0', dismissed: '1.6.0' })?.latest).toBe('1.7.0')
  })

  it('always shows when below the minimum', () => {
    const notice = versionNotice({ ...base, latest: '2.1.0', minimum: '2.0.0', dismissed: '2.1.0' })
    expect(notice?.kind).toBe('unsupported')
  })
})
