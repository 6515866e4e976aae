import { describe, expect, it } from 'vitest'
import { trackingAllowed } from './privacy.ts'

describe('trackingAllowed', () => {
  it.each([
    [{}, true],
    [{ doNotTrack: null }, true],
    [{ doNotTrack: '0' }, true],
    [{ doNotTrack: 'unspecified' }, true],
    [{ globalPrivacyControl: false }, true],
    [{ doNotTrack: '1' }, false],
    [{ doNotTrack: 'yes' }, false],
    [{ globalPrivacyControl: true }, false],
    [{ doNotTrack: '0', globalPrivacyControl: true }, false],
  ])('%j → %s', (signals, allowed) => {
    expect(trackingAllowed(signals)).toBe(allowed)
  })

  it('says no when any source says no (navigator, then window)', () => {
    expect(trackingAllowed({ doNotTrack: null }, { doNotTrack: '1' })).toBe(false)
    expect(trackingAllowed(undefined, {})).toBe(true)
  })
})
