import type { WebSocket } from 'ws'
import type { Sessions } from '../auth/sessions.ts'

/** How often a live socket's sessions are checked again. */
export const SESSION_CHECK_MS = 30_000

/**
 * Re-checks the sessions a live socket uses (its subscriptions see private objects as their
 * user): once one is signed out, revoked or expired, the socket is closed (4001), so nothing
 * more reaches it. The client reconnects as whoever it is now.
 */
export function watchSessions(socket: WebSocket, sessions: Sessions, everyMs = SESSION_CHECK_MS) {
  const tokens = new Set<string>()
  const timer = setInterval(() => {
    void (async () => {
      for (const token of tokens) {
        if (await sessions.find(token, { fresh: true }).catch(() => 'unknown' as const)) continue
        socket.close(4001, 'session ended')
        return
      }
    })()
  }, everyMs)
  timer.unref()
  socket.once('close', () => clearInterval(timer))
  return {
    /** A session token a subscription of this socket reads with. */
    add: (token: string) => void tokens.add(token),
  }
}
