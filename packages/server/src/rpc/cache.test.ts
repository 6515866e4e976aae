import { describe, expect, it } from 'vitest'
import { AnswerCache } from './cache.ts'

describe('AnswerCache', () => {
  it('stays within its byte bound however large the answers, dropping the least recent', () => {
    const cache = new AnswerCache(10_000, 10_000, 4_000)
    const answer = (n: number) => ({ result: 'x'.repeat(n) })
    for (let i = 0; i < 100; i++) {
      cache.set(`k${i}`, answer(3_000))
      expect(cache.bytes).toBeLessThanOrEqual(10_000)
    }
    expect(cache.size).toBe(3)
    expect(cache.get('k99')).toEqual(answer(3_000))
    expect(cache.get('k0')).toBeUndefined()
  })

  it('does not cache an answer over the entry limit, and replacing a key keeps the count right', () => {
    const cache = new AnswerCache(10_000, 10_000, 4_000)
    cache.set('big', { result: 'x'.repeat(5_000) })
    expect(cache.get('big')).toBeUndefined()
    expect(cache.bytes).toBe(0)
    cache.set('a', { result: 'x'.repeat(100) })
    const once = cache.bytes
    cache.set('a', { result: 'x'.repeat(100) })
    expect(cache.bytes).toBe(once)
  })

  it('keeps a recently read entry over an older one', () => {
    const cache = new AnswerCache(10_000, 700, 400)
    cache.set('a', 'x'.repeat(300))
    cache.set('b', 'x'.repeat(300))
    cache.get('a')
    cache.set('c', 'x'.repeat(300))
    expect(cache.get('a')).toBeDefined()
    expect(cache.get('b')).toBeUndefined()
  })
})
