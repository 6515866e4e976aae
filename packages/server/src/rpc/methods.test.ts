import { describe, expect, it } from 'vitest'
import { AnswerCache } from './cache.ts'
import { allowedMethods, isCacheable } from './methods.ts'

const hash = `0x${'12'.repeat(32)}`

describe('allow-list', () => {
  it('serves reads and eth_sendRawTransaction, not signing, filters or node admin', () => {
    for (const method of ['eth_call', 'eth_getBalance', 'eth_getLogs', 'eth_sendRawTransaction']) {
      expect(allowedMethods.has(method)).toBe(true)
    }
    for (const method of [
      'eth_sign',
      'eth_sendTransaction',
      'eth_newFilter',
      'eth_subscribe',
      'anvil_mine',
      'debug_traceTransaction',
      'admin_peers',
    ]) {
      expect(allowedMethods.has(method)).toBe(false)
    }
  })
})

describe('isCacheable', () => {
  it('caches eth_chainId and calls addressed by block hash only', () => {
    expect(isCacheable('eth_chainId', [])).toBe(true)
    expect(isCacheable('eth_getBlockByHash', [hash, true])).toBe(true)
    expect(isCacheable('eth_getBalance', ['0xabc', { blockHash: hash }])).toBe(true)
    expect(isCacheable('eth_call', [{}, { blockHash: hash }])).toBe(true)
    expect(isCacheable('eth_getBlockReceipts', [hash])).toBe(true)
    expect(isCacheable('eth_getBlockReceipts', ['latest'])).toBe(false)
    expect(isCacheable('eth_getBalance', ['0xabc', 'latest'])).toBe(false)
    expect(isCacheable('eth_getTransactionByHash', [hash])).toBe(false) // pending → mined changes it
    expect(isCacheable('eth_blockNumber', [])).toBe(false)
  })
})

describe('AnswerCache', () => {
  it('forgets the least recently used entry when full', () => {
    const cache = new AnswerCache(2)
    cache.set('a', 1)
    cache.set('b', 2)
    expect(cache.get('a')).toBe(1)
    cache.set('c', 3)
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([
      1,
      undefined,
      3,
      2,
    ])
  })
})
