import { AsyncLocalStorage } from 'node:async_hooks'

// Bytes of objects one HTTP answer may still carry. A plain request has the configured maximum;
// the sub-requests of a batch share one budget, so 50 queries cannot add up to 50 full answers.

const shared = new AsyncLocalStorage<{ remaining: number }>()

/** Batches whose work has not finished. */
let running = 0

/** What the current answer may still carry, at most `maxBytes`. */
export function answerBudget(maxBytes: number): number {
  const store = shared.getStore()
  return store ? Math.max(0, Math.min(maxBytes, store.remaining)) : maxBytes
}

/**
 * Runs `work` (the sub-requests of one batch) with one budget of `maxBytes` for all of them.
 * `take(bytes)` spends from it and says whether the bytes fitted; bytes that do not fit are not
 * spent unless `always` (an answer that is kept anyway, such as a write's).
 */
export function withSharedAnswerBudget<T>(
  maxBytes: number,
  work: (take: (bytes: number, always?: boolean) => boolean) => Promise<T>,
): Promise<T> {
  const store = { remaining: maxBytes }
  running++
  const done = () => {
    // With no batch left, the storage is switched off: on Node 20 an AsyncLocalStorage in use
    // keeps promise hooks installed that tax every promise of every later request (the RPC
    // gateway's included). The next batch switches it on again.
    if (--running === 0) shared.disable()
  }
  try {
    return shared
      .run(store, () =>
        work((bytes, always = false) => {
          if (bytes > store.remaining && !always) return false
          store.remaining -= bytes
          return true
        }),
      )
      .finally(done)
  } catch (error) {
    done()
    throw error
  }
}
