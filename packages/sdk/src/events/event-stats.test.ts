import { describe, expect, it } from 'vitest'
import type { EventStats } from '../wire/types.ts'
import { checkEventStats } from './event-stats.ts'

const empty: EventStats = { buckets: [], events: [], subdomains: [], total: 0 }

describe('checkEventStats', () => {
  it('accepts the contract shape', () => {
    const answer = {
      buckets: [{ start: '2026-11-21T14:00:00.000Z', count: 3 }],
      events: [{ event: 'page_view', count: 3 }],
      subdomains: [{ subdomain: '127.0.0.1', count: 3 }],
      total: 3,
    }
    expect(checkEventStats(answer)).toEqual(answer)
  })

  it.each([
    [null, 'buckets'],
    [{ ...empty, buckets: [{ start: 'yesterday', count: 1 }] }, 'invalid start'],
    [{ ...empty, events: [{ event: 'x', count: '1' }] }, 'events'],
    [{ ...empty, subdomains: 'all' }, 'subdomains'],
    [{ ...empty, total: undefined }, 'total'],
  ])('refuses %j', (answer, problem) => {
    expect(() => checkEventStats(answer)).toThrow(problem)
  })
})
