import type { BackendClient } from '@portico/sdk/backend/client'
import { checkVersion } from '@portico/sdk/version/checkVersion'
import { sdkVersion } from '@portico/sdk/version'
import type { VersionNotice } from './version.ts'

// Loaded after the first paint (VersionNotice), so it adds nothing to it.

/**
 * Asks the server (the SDK's `checkVersion`, `GET /api/version`) whether this SDK is the latest;
 * the notice to show, or null. A dismissed release stays quiet; below the minimum always shows.
 */
export async function checkForNotice(
  client: BackendClient,
  dismissed: string | null,
): Promise<VersionNotice | null> {
  try {
    // The app shows its own notice instead of the SDK's console warning.
    const result = await checkVersion(client, { warn: () => undefined })
    if (result.status === 'current' || dismissed === result.sdk.latest) return null
    return { kind: 'outdated', current: sdkVersion, latest: result.sdk.latest }
  } catch (error) {
    if ((error as { name?: unknown }).name !== 'SdkVersionUnsupportedError') throw error
    return { kind: 'unsupported', current: sdkVersion, latest: '' }
  }
}
