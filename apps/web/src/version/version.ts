// The version notice (issue 7): shown when the app's SDK is older than the latest release the
// server knows of, until dismissed for that release.

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

export interface VersionNotice {
  /** `unsupported`: below the server's minimum, some features may fail. */
  kind: 'outdated' | 'unsupported'
  current: string
  latest: string
}

/** What to show for the server's answer, given the release the user already dismissed. */
export function versionNotice(input: {
  current: string
  latest: string
  minimum: string
  dismissed: string | null
}): VersionNotice | null {
  const { current, latest, minimum, dismissed } = input
  if (compareVersions(current, minimum) < 0) return { kind: 'unsupported', current, latest }
  if (compareVersions(current, latest) >= 0) return null
  if (dismissed === latest) return null
  return { kind: 'outdated', current, latest }
}

/** localStorage key holding the latest version whose notice was dismissed. */
export const DISMISSED_KEY = 'portico:version-notice-dismissed'
