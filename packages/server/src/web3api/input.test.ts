import { describe, expect, it } from 'vitest'
import { loadWeb3ApiConfig } from '../config/web3api.ts'
import { answersWithoutAppId } from '../compat/functions.ts'
import type { CompatCloud } from '../compat/call.ts'
import { chainOf, pageOf, pageParams, v1ChainId } from './input.ts'

// How a Web3 API call's chain and paging are read, which names come without an app id, and the
// WEB3API_* settings.

describe('Web3 API input', () => {
  const serves = (id: number) => id === 31337 || id === 137

  it('maps v1 chain names, hex and decimal ids, and names pointed elsewhere', () => {
    expect(['eth', 'BSC Testnet', '0x7a69', '1337', 'moon'].map(v1ChainId)).toEqual([
      1,
      97,
      31337,
      1337,
      undefined,
    ])
    const aliases = new Map([[1, 31337]])
    expect(chainOf(undefined, aliases, serves)).toBe(31337)
    expect(chainOf('0x1', aliases, serves)).toBe(31337)
    expect(chainOf('matic', aliases, serves)).toBe(137)
    expect(() => chainOf('bsc', aliases, serves)).toThrow(/RPC_URL_56/)
    expect(() => chainOf({}, aliases, serves)).toThrow(/chain is a v1 chain name/)
  })

  it('pages with limit, offset and its own cursors only', () => {
    const rows = Array.from({ length: 7 }, (_, i) => i)
    const first = pageOf(rows, pageParams({ limit: 3 }))
    expect(first).toMatchObject({ total: 7, page: 0, page_size: 3, result: [0, 1, 2] })
    const second = pageOf(rows, pageParams({ limit: 3, cursor: first.cursor }))
    expect(second).toMatchObject({ page: 1, result: [3, 4, 5] })
    const last = pageOf(rows, pageParams({ limit: 3, cursor: second.cursor }))
    expect(last).toMatchObject({ page: 2, result: [6], cursor: null })
    expect(pageOf(rows, pageParams({ limit: '2', offset: '4' })).result).toEqual([4, 5])
    expect(pageParams({}).limit).toBe(100)
    expect(() => pageParams({ limit: 101 })).toThrow('limit may be at most 100 (got 101).')
    expect(() => pageParams({ limit: 0 })).toThrow(/from 1 to 100/)
    expect(() => pageParams({ offset: -1 })).toThrow(/offset/)
    for (const cursor of ['abc', 'p1.!!', `p1.${Buffer.from('o:-1').toString('base64url')}`, 5])
      expect(() => pageParams({ cursor })).toThrow(/cursor is not one this server gave/)
  })

  it('takes no app id for Web3 API names the site does not define itself', () => {
    const site = new Map([['getTokenBalances', async () => 1]])
    const cloud = { hasFunction: (name: string) => name === 'getNFTs' } as unknown as CompatCloud
    expect(answersWithoutAppId('getNativeBalance', site, cloud)).toBe(true)
    expect(answersWithoutAppId('getNFTTrades', site, cloud)).toBe(true)
    expect(answersWithoutAppId('getNFTs', site, cloud)).toBe(false)
    expect(answersWithoutAppId('getTokenBalances', site, cloud)).toBe(false)
    expect(answersWithoutAppId('getPluginSpecs', site, cloud)).toBe(false)
    expect(answersWithoutAppId('myFunction', site, undefined)).toBe(false)
  })

  it('reads the WEB3API_* settings, and names each bad one', () => {
    const a = `0x${'a'.repeat(40)}`
    const b = `0x${'B'.repeat(40)}`
    const problems: string[] = []
    const config = loadWeb3ApiConfig(
      {
        WEB3API_CHAINS: 'eth:31337, bsc testnet:97',
        WEB3API_DEX_31337: `${a},${b}`,
        WEB3API_ENS_31337: a,
        WEB3API_IPFS_GATEWAY: 'https://ipfs.example/ipfs',
        WEB3API_METADATA_PRIVATE_HOSTS: '127.0.0.1:8080',
      },
      problems,
    )
    expect(problems).toEqual([])
    expect([...config.chainAliases]).toEqual([
      ['eth', 31337],
      ['bsc testnet', 97],
    ])
    expect(config.dex.get(31337)).toEqual({ factory: a, quote: b.toLowerCase(), usd: undefined })
    expect(config.ens.get(31337)).toBe(a)
    expect(config.ipfsGateway).toBe('https://ipfs.example/ipfs/')
    expect(config.metadataPrivateHosts).toEqual(['127.0.0.1:8080'])
    expect(loadWeb3ApiConfig({}, []).metadataPrivateHosts).toBe(false)
    const bad: string[] = []
    loadWeb3ApiConfig(
      {
        WEB3API_CHAINS: 'eth',
        WEB3API_DEX_31337: a,
        WEB3API_DEX_x: `${a},${a}`,
        WEB3API_ENS_1: 'nope',
        WEB3API_IPFS_GATEWAY: 'ftp://x',
        WEB3API_METADATA_PRIVATE_HOSTS: 'yes',
        WEB3API_RATE_LIMIT_PER_IP: '0',
      },
      bad,
    )
    expect(bad).toHaveLength(7)
    expect(bad.join('\n')).toMatch(/WEB3API_CHAINS.*eth:31337/)
  })
})
