import { describe, expect, it } from 'vitest'
import { createPortico } from '@portico/sdk/portico'
import { porticoConfigFromEnv, shortAddress } from './config.ts'

describe('porticoConfigFromEnv', () => {
  it('needs nothing: vendors unconfigured, reads through the server gateway', () => {
    const config = porticoConfigFromEnv({}, 'http://127.0.0.1:3000')
    expect(config.walletConnectProjectId).toBeUndefined()
    expect(config.magicApiKey).toBeUndefined()
    expect(config.web3AuthClientId).toBeUndefined()
    expect(config.chains.map((chain) => chain.id)).toEqual([1, 31337])
    const portico = createPortico(config)
    expect(portico.nodeUrl(1)).toBe('http://127.0.0.1:3000/api/rpc/1')
    expect(portico.nodeUrl(31337)).toBe('http://127.0.0.1:3000/api/rpc/31337')
  })

  it('takes vendor ids, chains and public node URLs from VITE_ variables; blank means unset', () => {
    const config = porticoConfigFromEnv(
      {
        VITE_WALLETCONNECT_PROJECT_ID: 'wc-project',
        VITE_WEB3AUTH_CLIENT_ID: '  ',
        VITE_CHAIN_IDS: '10, 8453',
        VITE_RPC_URL_10: 'https://optimism.example',
      },
      'https://app.example',
    )
    expect(config.walletConnectProjectId).toBe('wc-project')
    expect(config.web3AuthClientId).toBeUndefined()
    expect(config.chains.map((chain) => chain.id)).toEqual([10, 8453])
    const portico = createPortico(config)
    expect(portico.nodeUrl(10)).toBe('https://optimism.example')
    expect(portico.nodeUrl(8453)).toBe('https://app.example/api/rpc/8453')
  })
})

describe('shortAddress', () => {
  it('keeps the start and the end', () => {
    expect(shortAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe('0xf39F…2266')
  })
})
