import { sdkVersion } from '@portico/sdk/version'
import { getBackendClient } from '../backend/backend.ts'
import { versionNotice, type VersionNotice } from './version.ts'

// Loaded after the first paint (VersionNotice), so it adds nothing to it.

export interface VersionInfo {
  current: string
  latest: string
  minimum: string
}

/** Asks `GET /api/version` which SDK releases the server knows of. */
export async function fetchVersionInfo(): Promise<VersionInfo> {
  const answer = await getBackendClient().request<{ sdk: { latest: string; minimum: string } }>(
    'GET',
    '/api/version',
  )
  return { current: sdkVersion, latest: answer.sdk.latest, minimum: answer.sdk.minimum }
}

/** The notice to show (if any) given the release already dismissed. */
export async function checkForNotice(dismissed: string | null): Promise<VersionNotice | null> {
  return versionNotice({ ...(await fetchVersionInfo()), dismissed })
}
