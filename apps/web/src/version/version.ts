// The version notice: shown when the app's SDK is older than the latest release the
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
