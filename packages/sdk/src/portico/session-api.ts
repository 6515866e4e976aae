import { getSession, listSessions, revokeSession, signOut } from '../auth/session.ts'
import type { BackendClient } from '../backend/client.ts'
import { BackendError } from '../errors/backend.ts'
import type { AuthUser } from './auth-machine.ts'

// The server calls createPortico makes, on top of the SDK's auth functions, loaded together with
// the backend client on the first server call (anonymous visitors' first load makes none). The
// sign-in itself (viem/siwe, wallet) is in sign-in-flow.ts, loaded on demand.

export type { SessionInfo } from '../auth/session.ts'

/** True for the server's "not signed in" answer. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof BackendError && error.status === 401
}

/** The state machine's user from a session or sign-in answer. */
export function toAuthUser(
  answer: {
    user: {
      id: string
      address: string
      addresses?: readonly string[] | undefined
      role?: 'admin' | 'viewer' | undefined
    }
    session: { id: string; chainId?: number; expiresAt: string }
  },
  chainId?: number,
): AuthUser {
  return {
    id: answer.user.id,
    address: answer.user.address as `0x${string}`,
    ...(answer.user.addresses
      ? { addresses: answer.user.addresses as readonly `0x${string}`[] }
      : {}),
    ...(answer.user.role ? { role: answer.user.role } : {}),
    chainId: answer.session.chainId ?? chainId,
    sessionId: answer.session.id,
    expiresAt: answer.session.expiresAt,
  }
}

/** The current session's user, or `null` when the server says there is none (401). */
export async function fetchSession(client: BackendClient): Promise<AuthUser | null> {
  const answer = await getSession(client)
  return answer ? toAuthUser(answer) : null
}

export { listSessions as fetchSessions, revokeSession as deleteSession, signOut as logout }
export { linkedWallets, linkWallet, unlinkWallet } from '../auth/wallets.ts'
