/**
 * The browser's privacy signals the app honours before tracking anything (issue 7): the legacy
 * Do-Not-Track header setting (`navigator.doNotTrack`, `'1'` when on; some browsers put it on
 * `window` or use `'yes'`) and Global Privacy Control (`navigator.globalPrivacyControl`).
 */
export interface PrivacySignals {
  doNotTrack?: string | null | undefined
  globalPrivacyControl?: boolean | undefined
}

/** Whether the visitor lets the site count their visit: false when either signal says no. */
export function trackingAllowed(...sources: (PrivacySignals | undefined)[]): boolean {
  for (const source of sources) {
    if (!source) continue
    const dnt = source.doNotTrack
    if (dnt === '1' || dnt === 'yes') return false
    if (source.globalPrivacyControl === true) return false
  }
  return true
}

/** The signals of this browser (navigator first, then the old `window.doNotTrack`). */
export function browserTrackingAllowed(): boolean {
  if (typeof navigator === 'undefined') return false
  return trackingAllowed(
    navigator as PrivacySignals,
    typeof window === 'undefined' ? undefined : (window as PrivacySignals),
  )
}
