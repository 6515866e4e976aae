/**
 * Group commit / request coalescing (docs/decisions.md, "Group commit": speed comes from batching,
 * never from answering before the data is stored). Items that arrive while a batch is
 * running wait together and go into the next one; when idle an item runs at once, so a lone
 * request never waits. Each caller is resolved with its own result only after its batch
 * finished; if the batch fails, its items are run again one by one, so only the items that
 * fail alone get an error.
 *
 * @param run Runs one batch; must answer one result per item, in order.
 */
/** Told the size of every batch a coalescer runs (metrics listen here). */
export const batchSizes = new Set<(size: number) => void>()

export function createCoalescer<I, O>(
  run: (items: I[]) => Promise<O[]>,
  maxBatch = 200,
  /**
   * Batches run at once. One on the embedded database (one connection). On PostgreSQL two
   * overlap: while one commits, the next is already on its way, so requests that just missed a
   * batch do not wait for its whole round trip.
   */
  concurrency = 1,
): (item: I) => Promise<O> {
  let queue: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = []
  let running = 0
  let scheduled = false

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const group = queue.slice(0, maxBatch)
      queue = queue.slice(group.length)
      for (const listen of batchSizes) listen(group.length)
      try {
        const results = await run(group.map((entry) => entry.item))
        group.forEach((entry, index) => entry.resolve(results[index] as O))
      } catch (error) {
        if (group.length === 1) {
          group[0]!.reject(error)
          continue
        }
        // One member's bad value must not fail the others: run each alone, so only the
        // offender gets the error and every other write is still stored and acknowledged.
        for (const entry of group) {
          try {
            const [result] = await run([entry.item])
            entry.resolve(result as O)
          } catch (alone) {
            entry.reject(alone)
          }
        }
      }
    }
  }

  function start(): void {
    scheduled = false
    while (running < concurrency && queue.length > 0) {
      running++
      void drain().finally(() => {
        running--
        if (queue.length > 0 && !scheduled) schedule()
      })
    }
  }

  // Start on the next turn of the event loop, not now: PGlite runs queries synchronously on
  // this thread, so nothing could join a batch while it runs; requests parsed in the same turn
  // join instead.
  function schedule(): void {
    scheduled = true
    setImmediate(start)
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject })
      if (running < concurrency && !scheduled) schedule()
    })
}
