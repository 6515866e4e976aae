// The version notice (issue 7): shown when the app's SDK is older than the latest release the
// server knows of, until dismissed for that release.

export interface VersionNotice {
  /** `unsupported`: below the server's minimum, some features may fail (not dismissible). */
  kind: 'outdated' | 'unsupported'
  current: string
  /** The latest release (empty for `unsupported`). */
  latest: string
}

/** localStorage key holding the latest version whose notice was dismissed. */
export const DISMISSED_KEY = 'portico:version-notice-dismissed'

/** Compares `x.y.z` versions numerically: negative, zero or positive. Non-numbers count as 0. */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) =>
    version
      .split('-')[0]!
      .split('.')
      .map((n) => Number(n) || 0)
  const [left, right] = [parts(a), parts(b)]
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0)
    if (difference !== 0) return difference
  }
  return 0
}
