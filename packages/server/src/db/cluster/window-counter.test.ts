import { describe, expect, it } from 'vitest'
import { databaseKinds, testDatabase } from '../../../test/helpers.ts'
import {
  databaseCounts,
  databaseWindowCounter,
  leasedCounter,
  memoryWindowCounter,
} from './window-counter.ts'

// Counts start again in each window, so a test that ran across the end of a window would count in
// two of them: with a minute's window that happened to a few runs in a hundred on a loaded
// machine (a busy test takes seconds). A day's window only ends at midnight UTC.
const windowMs = 24 * 3_600_000

describe.each(databaseKinds())('window counters on %s', (kind) => {
  it('concurrent additions, grouped in one statement, each learn their own exact count', async () => {
    const database = await testDatabase(kind)
    try {
      const counter = databaseWindowCounter(database.db)
      const counts = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          counter.add(i % 2 ? 'a' : 'b', i % 4 === 1 ? 3 : 1, windowMs).then((r) => r.count),
        ),
      )
      // Key a gets 1s and 3s (20 additions, 40 in total), key b twenty 1s.
      const a = counts.filter((_, i) => i % 2)
      const b = counts.filter((_, i) => !(i % 2))
      expect([...b].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
      expect(Math.max(...a)).toBe(40)
      expect(new Set(a).size).toBe(20)
      // Another process's counter on the same database continues from there.
      const other = databaseWindowCounter(database.db)
      expect((await other.add('a', 1, windowMs)).count).toBe(41)
    } finally {
      await database.close()
    }
  })
})

describe.each(databaseKinds())('window counters that reserve ahead on %s', (kind) => {
  it('two processes never let more than the limit through, nor far fewer, with few statements', async () => {
    const database = await testDatabase(kind)
    try {
      let statements = 0
      const reserve = databaseCounts(database.db)
      // Two processes' counters on one database; every reservation is one more addition.
      const processes = [0, 1].map(() =>
        leasedCounter((key, by, windowStart) => {
          statements++
          return reserve(key, by, windowStart)
        }),
      )
      const max = 1_000
      const counts = await Promise.all(
        Array.from({ length: 1_500 }, (_, i) =>
          processes[i % 2]!.add('busy', 1, windowMs, max).then((r) => r.count),
        ),
      )
      const accepted = counts.filter((count) => count <= max)
      expect(accepted.length).toBeLessThanOrEqual(max)
      // What one process reserved and did not use is lost, at most an eighth of what was left.
      expect(accepted.length).toBeGreaterThan(max * 0.85)
      // Each count under the limit is handed out once across both processes.
      expect(new Set(accepted).size).toBe(accepted.length)
      expect(statements).toBeLessThan(1_500 / 8)
    } finally {
      await database.close()
    }
  })

  it('counts exactly, one statement each, when the limit is small', async () => {
    const database = await testDatabase(kind)
    try {
      const a = databaseWindowCounter(database.db)
      const b = databaseWindowCounter(database.db)
      const counts = []
      for (let i = 0; i < 6; i++)
        counts.push((await (i % 2 ? a : b).add('k', 1, windowMs, 5)).count)
      expect(counts).toEqual([1, 2, 3, 4, 5, 6])
    } finally {
      await database.close()
    }
  })
})

describe('memory window counter', () => {
  it('counts per key and starts again in the next window', async () => {
    const counter = memoryWindowCounter()
    expect((await counter.add('k', 2, windowMs)).count).toBe(2)
    expect((await counter.add('k', 3, windowMs)).count).toBe(5)
    expect((await counter.add('j', 1, windowMs)).count).toBe(1)
  })
})
