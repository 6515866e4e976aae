import { createBackendClient, type BackendClient } from '@portico/sdk/backend/client'

// The app's one backend client for its own features (dashboard, tracking, version, profile).
// Made on first use, never at import time (HELPERS.md: no side effects on import); the server
// serving the app is the backend, so its origin is the server URL.

let client: BackendClient | undefined

/** The shared client for this page's origin. */
export function getBackendClient(): BackendClient {
  client ??= createBackendClient({ serverUrl: window.location.origin, appId: 'portico' })
  return client
}
