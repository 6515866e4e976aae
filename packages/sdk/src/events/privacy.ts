/**
 * The browser's privacy signals honoured before tracking anything: the legacy
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

/**
 * The signals of the browser this runs in (navigator, then the old `window.doNotTrack`), read at
 * call time. Outside a browser there is no signal: allowed.
 *
 * @example
 * if (browserTrackingAllowed()) void trackEvent(client, { event: 'page_view' })
 */
export function browserTrackingAllowed(): boolean {
  const scope = globalThis as { navigator?: PrivacySignals; doNotTrack?: string | null }
  return trackingAllowed(scope.navigator, { doNotTrack: scope.doNotTrack })
}
