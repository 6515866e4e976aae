// Leadership of a named task, on whatever lock a cluster takes for it: compete until the lock
// is ours, run the task, and give the lock back when the task ends. A lock lost while the task
// runs (its connection gone) aborts the task, and once it has stopped this process competes
// again like any other.

/** Leadership of one named task in this process (`Cluster.lead`). */
export interface Leadership {
  /** Whether this process runs the task now. */
  readonly leading: boolean
  /**
   * Settles once the task has ended of its own accord (rejecting with its error), or after
   * `stop`. A task cut off by a lost lock does not end the leadership: it is competed for again.
   */
  readonly done: Promise<void>
  /** Stops competing and aborts the task; resolves once it has returned. */
  stop(): Promise<void>
}

/** A lock taken for a task: `lost` aborts when it is no longer held. */
export interface Claim {
  lost: AbortSignal
  release(): Promise<void>
}

export interface LeadOptions {
  /** Takes the task's lock, or resolves undefined when another holder has it. */
  take(): Promise<Claim | undefined>
  /** How long to wait between tries for a lock held elsewhere. */
  retryMs: number
  /** Told when taking the lock failed (it is tried again after `retryMs`). */
  onTakeError(error: unknown): void
}

export function compete(
  run: (signal: AbortSignal) => Promise<void>,
  options: LeadOptions,
): Leadership {
  const stopping = new AbortController()
  let leading = false

  const wait = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, options.retryMs)
      function done() {
        clearTimeout(timer)
        stopping.signal.removeEventListener('abort', done)
        resolve()
      }
      stopping.signal.addEventListener('abort', done, { once: true })
    })

  const loop = async () => {
    while (!stopping.signal.aborted) {
      let claim: Claim | undefined
      try {
        claim = await options.take()
      } catch (error) {
        options.onTakeError(error)
      }
      if (!claim) {
        await wait()
        continue
      }
      const running = new AbortController()
      const abort = () => running.abort()
      claim.lost.addEventListener('abort', abort, { once: true })
      stopping.signal.addEventListener('abort', abort, { once: true })
      if (claim.lost.aborted || stopping.signal.aborted) abort()
      leading = true
      try {
        await run(running.signal)
      } finally {
        leading = false
        claim.lost.removeEventListener('abort', abort)
        stopping.signal.removeEventListener('abort', abort)
        await claim.release()
      }
      if (!claim.lost.aborted) return
    }
  }
  const done = loop()
  // The task's error reaches whoever awaits `done`; `stop` resolves whatever it was.
  const settled = done.catch(() => {})

  return {
    get leading() {
      return leading
    },
    done,
    async stop() {
      stopping.abort()
      await settled
    },
  }
}
