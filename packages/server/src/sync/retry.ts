// How a follower of a chain (a contract sync, the address index) reports a failed step and
// waits before the next: the error's first line, kept short, and a doubling wait capped at 30 s.

/** The first line of `error`'s message, at most 300 characters. */
export function errorLine(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]!.slice(0, 300) : String(error)
}

/** Milliseconds to wait after `failures` failed steps in a row. */
export function retryWait(failures: number): number {
  return Math.min(30_000, 250 * 2 ** Math.min(failures, 7))
}
