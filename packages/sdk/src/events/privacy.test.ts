import { describe, expect, it } from 'vitest'
import { browserTrackingAllowed, trackingAllowed } from './privacy.ts'

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

  it('reads the signals of the global scope at call time', () => {
    const scope = globalThis as { navigator?: unknown; doNotTrack?: unknown }
    const original = Object.getOwnPropertyDescriptor(globalThis, 'navigator')
    try {
      Object.defineProperty(globalThis, 'navigator', {
        value: { doNotTrack: null, globalPrivacyControl: true },
        configurable: true,
      })
      expect(browserTrackingAllowed()).toBe(false)
      Object.defineProperty(globalThis, 'navigator', { value: {}, configurable: true })
      expect(browserTrackingAllowed()).toBe(true)
      scope.doNotTrack = '1'
      expect(browserTrackingAllowed()).toBe(false)
    } finally {
      delete scope.doNotTrack
      if (original) Object.defineProperty(globalThis, 'navigator', original)
      else delete scope.navigator
    }
  })
})
