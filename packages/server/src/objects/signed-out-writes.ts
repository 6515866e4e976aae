import type { WindowCounter } from '../db/cluster/cluster.ts'
import { RateLimited } from '../errors.ts'

// How fast a client that is not signed in may write objects (SIGNED_OUT_WRITE_RATE_LIMIT). A
// signed-in write has a user behind it; a signed-out one only has the address it came from, and
// without a limit one address could fill a class that lets everyone create. The store (store.ts)
// charges each signed-out create, update and delete here, after its access checks and before
// anything is written, whichever surface it came from (`/api`, either batch, the compatibility
// mount, cloud code acting for a client): a refused write changes nothing.

/** Counts the signed-out writes of each client. */
export interface SignedOutWrites {
  /**
   * Counts one write from `client` (the request's address, `request.ip`); throws a 429
   * `RateLimited` when it is over the limit of this minute.
   */
  charge(client: string | undefined): Promise<void>
}

/** `max` signed-out writes per minute per client, counted by `counter` (shared by a cluster). */
export function signedOutWriteLimit(counter: WindowCounter, max: number): SignedOutWrites {
  return {
    async charge(client) {
      // A write that names no client (none should) shares one budget rather than going free.
      const key = `signed-out-writes:${client ?? 'unknown'}`
      const { count, ttlMs } = await counter.add(key, 1, 60_000, max)
      if (count <= max) return
      const seconds = Math.max(1, Math.ceil(ttlMs / 1000))
      throw new RateLimited(
        `Too many writes without a sign-in from this address (at most ${max} a minute): sign in, or try again in a minute.`,
        seconds,
      )
    },
  }
}
