import { describe, expect, it } from 'vitest'
import { createCoalescer } from './coalesce.ts'

describe('createCoalescer', () => {
  it('runs items of the same turn as one batch and answers each with its own result', async () => {
    const batches: number[][] = []
    const double = createCoalescer(async (items: number[]) => {
      batches.push(items)
      return items.map((n) => n * 2)
    })
    const first = await Promise.all([1, 2, 3].map(double))
    expect(first).toEqual([2, 4, 6])
    expect(batches).toEqual([[1, 2, 3]])
  })

  it('queues what arrives while a batch runs for the next batch, capped in size', async () => {
    const batches: number[][] = []
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const run = createCoalescer(async (items: number[]) => {
      batches.push(items)
      if (batches.length === 1) await gate
      return items
    }, 2)
    const a = run(1)
    await new Promise((resolve) => setImmediate(resolve))
    const rest = [2, 3, 4].map(run)
    release()
    expect(await Promise.all([a, ...rest])).toEqual([1, 2, 3, 4])
    expect(batches).toEqual([[1], [2, 3], [4]])
  })

  it('rejects every caller of a failed batch and keeps working afterwards', async () => {
    let fail = true
    const run = createCoalescer(async (items: number[]) => {
      if (fail) throw new Error('database down')
      return items
    })
    const results = await Promise.allSettled([run(1), run(2)])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    fail = false
    expect(await run(3)).toBe(3)
  })

  it("runs a failed group's members one by one, so only the offender is refused", async () => {
    const batches: number[][] = []
    const run = createCoalescer(async (items: number[]) => {
      batches.push(items)
      if (items.includes(13)) throw new Error('cannot store 13')
      return items.map((n) => n * 10)
    })
    const first = run(1)
    await new Promise((resolve) => setImmediate(resolve))
    const results = await Promise.allSettled([first, ...[2, 13, 4].map(run)])
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'refused'))).toEqual([
      10,
      20,
      'refused',
      40,
    ])
    expect(batches).toEqual([[1], [2, 13, 4], [2], [13], [4]])
  })

  it('overlaps at most `concurrency` batches, and keeps each caller its own result', async () => {
    const releases: (() => void)[] = []
    let inFlight = 0
    let most = 0
    const batches: number[][] = []
    const run = createCoalescer(
      async (items: number[]) => {
        batches.push(items)
        most = Math.max(most, ++inFlight)
        await new Promise<void>((resolve) => releases.push(resolve))
        inFlight--
        return items.map((n) => n * 2)
      },
      200,
      2,
    )
    const first = run(1)
    await new Promise((resolve) => setImmediate(resolve))
    const second = run(2) // starts while the first batch is out
    await new Promise((resolve) => setImmediate(resolve))
    const rest = [3, 4].map(run) // wait: two are out already
    await new Promise((resolve) => setImmediate(resolve))
    expect(batches).toEqual([[1], [2]])
    while (batches.length < 3 || releases.length) {
      releases.shift()?.()
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(await Promise.all([first, second, ...rest])).toEqual([2, 4, 6, 8])
    expect(batches).toEqual([[1], [2], [3, 4]])
    expect(most).toBe(2)
  })
})
