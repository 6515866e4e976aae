import { describe, expect, it } from 'vitest'
import { databaseKinds, testDatabase } from '../../test/helpers.ts'
import { databaseWindowCounter, memoryWindowCounter } from './window-counter.ts'

describe.each(databaseKinds())('window counters on %s', (kind) => {
  it('concurrent additions, grouped in one statement, each learn their own exact count', async () => {
    const database = await testDatabase(kind)
    try {
      const counter = databaseWindowCounter(database.db)
      const counts = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          counter.add(i % 2 ? 'a' : 'b', i % 4 === 1 ? 3 : 1, 60_000).then((r) => r.count),
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
      expect((await other.add('a', 1, 60_000)).count).toBe(41)
    } finally {
      await database.close()
    }
  })
})

describe('memory window counter', () => {
  it('counts per key and starts again in the next window', async () => {
    const counter = memoryWindowCounter()
    expect((await counter.add('k', 2, 60_000)).count).toBe(2)
    expect((await counter.add('k', 3, 60_000)).count).toBe(5)
    expect((await counter.add('j', 1, 60_000)).count).toBe(1)
  })
})
