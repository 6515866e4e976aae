import type { BackendClient } from '../backend/client.ts'
import { BackendError } from '../errors/backend.ts'
import type { AuthUser } from './authMachine.ts'

// The session calls createPortico needs on every page load. Kept free of viem so the first load
// stays small; the sign-in itself (viem/siwe, wallet) is in signInFlow.ts, loaded on demand.

interface SessionAnswer {
  user: { id: string; address: string }
  session: { id: string; chainId?: number; expiresAt: string }
}

/** One server session of the signed-in user (`GET /api/auth/sessions`). */
export interface SessionInfo {
  id: string
  createdAt: string
  lastSeenAt: string
  expiresAt: string
  userAgent: string | null
  chainId: number | null
  current: boolean
}

/** True for the server's "not signed in" answer. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof BackendError && error.status === 401
}

export function toAuthUser(answer: SessionAnswer, chainId?: number): AuthUser {
  return {
    id: answer.user.id,
    address: answer.user.address as `0x${string}`,
    chainId: answer.session.chainId ?? chainId,
    sessionId: answer.session.id,
    expiresAt: answer.session.expiresAt,
  }
}

/** The current session's user, or `null` when the server says there is none (401). */
export async function fetchSession(client: BackendClient): Promise<AuthUser | null> {
  try {
    return toAuthUser(await client.request<SessionAnswer>('GET', '/api/auth/session'))
  } catch (error) {
    if (isUnauthorized(error)) return null
    throw error
  }
}

/** Ends the current session on the server and clears the cookie. */
export async function logout(client: BackendClient): Promise<void> {
  await client.request('POST', '/api/auth/logout', { body: {}, idempotent: false })
}

export async function fetchSessions(client: BackendClient): Promise<SessionInfo[]> {
  const answer = await client.request<{ sessions: SessionInfo[] }>('GET', '/api/auth/sessions')
  return answer.sessions
}

export async function deleteSession(client: BackendClient, id: string): Promise<void> {
  await client.request('DELETE', `/api/auth/sessions/${encodeURIComponent(id)}`)
}
