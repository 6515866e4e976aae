import { describe, expect, it } from 'vitest'
import { loadSyncConfig } from './sync.ts'

describe('contract sync settings', () => {
  it('read a WebSocket node per chain, and name a bad one without its URL', () => {
    const problems: string[] = []
    const config = loadSyncConfig(
      {
        RPC_WS_URL_1: 'wss://eth.example/KEY',
        RPC_WS_URL_31337: ' ws://127.0.0.1:8545 ',
        RPC_WS_URL_10: 'https://op.example/SECRET',
        RPC_WS_URL_x: 'ws://a',
      },
      problems,
    )
    expect([...config.headUrls]).toEqual([
      [1, 'wss://eth.example/KEY'],
      [31337, 'ws://127.0.0.1:8545'],
    ])
    expect(problems).toEqual([
      'RPC_WS_URL_10 is not a ws(s) URL',
      'RPC_WS_URL_x: the part after RPC_WS_URL_ must be a decimal chain id',
    ])
    expect(problems.join()).not.toContain('SECRET')
  })
  it('read which chain v1\'s "1337" means', () => {
    const problems: string[] = []
    expect(loadSyncConfig({ COMPAT_LOCAL_CHAIN_ID: '31337' }, problems).localChainId).toBe(31337)
    expect(loadSyncConfig({}, problems).localChainId).toBeUndefined()
    loadSyncConfig({ COMPAT_LOCAL_CHAIN_ID: 'anvil' }, problems)
    expect(problems).toEqual(['COMPAT_LOCAL_CHAIN_ID is a decimal chain id (got "anvil")'])
  })
})
