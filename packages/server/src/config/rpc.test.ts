import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './server.ts'
import { loadRpcConfig, rpcConfigDefaults } from './rpc.ts'

describe('RPC gateway configuration', () => {
  it('reads RPC_URL_<chainId> lists in order, with defaults for the limits', () => {
    const config = loadRpcConfig(
      { RPC_URL_1: 'https://a.example/k, https://b.example', RPC_URL_10: 'http://c' },
      [],
    )
    expect([...config.upstreams]).toEqual([
      [1, ['https://a.example/k', 'https://b.example']],
      [10, ['http://c']],
    ])
    expect(config).toMatchObject(rpcConfigDefaults)
  })

  it('lists every problem without echoing the URLs, which may hold provider keys', () => {
    let error: unknown
    try {
      loadConfig({
        RPC_URL_1: 'https://ok.example,ftp://SECRET',
        RPC_URL_main: 'https://x',
        RPC_MAX_BATCH: '0',
      })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).problems).toEqual([
      'RPC_URL_1: entry 2 is not an http(s) URL',
      'RPC_URL_main: the part after RPC_URL_ must be a decimal chain id',
      'RPC_MAX_BATCH must be a whole number above 0 (got "0")',
    ])
    expect((error as Error).message).not.toContain('SECRET')
  })
})
