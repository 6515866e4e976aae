import type { BackendClient } from '../backend/client.ts'
import { BackendError } from '../errors/backend.ts'
import type { CurrentSession, SessionInfo } from '../wire/types.ts'

export type { CurrentSession, SessionInfo }

export type GetSessionReturnType = CurrentSession | null

/**
 * The signed-in user and session, or `null` when the server has no session for this client
 * (never signed in, signed out, expired or revoked). Other failures throw `BackendError`.
 */
export async function getSession(client: BackendClient): Promise<GetSessionReturnType> {
  try {
    return await client.request<CurrentSession>('GET', '/api/auth/session')
  } catch (error) {
    if (error instanceof BackendError && error.status === 401) return null
    throw error
  }
}

/**
 * Ends the session on the server (the cookie is cleared, the session revoked) and forgets the
 * bearer token. The token is forgotten even when the server cannot be reached; the error is
 * still thrown so the caller can report it (the `logging_out` state).
 */
export async function signOut(client: BackendClient): Promise<void> {
  try {
    await client.request('POST', '/api/auth/logout', { idempotent: false })
  } finally {
    client.setToken(undefined)
  }
}

/** The signed-in user's active sessions (devices), newest first. */
export async function listSessions(client: BackendClient): Promise<SessionInfo[]> {
  const { sessions } = await client.request<{ sessions: SessionInfo[] }>(
    'GET',
    '/api/auth/sessions',
  )
  return sessions
}

/** Revokes one of the signed-in user's sessions; it is refused by the server at once. */
export async function revokeSession(client: BackendClient, sessionId: string): Promise<void> {
  await client.request('DELETE', `/api/auth/sessions/${encodeURIComponent(sessionId)}`, {
    idempotent: false,
  })
}
