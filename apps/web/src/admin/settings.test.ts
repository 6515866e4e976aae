import { describe, expect, it } from 'vitest'
import { maskUrls } from './settings.tsx'

describe('maskUrls', () => {
  it("hides a URL's key in its path, query or credentials, and keeps its host", () => {
    expect(maskUrls('https://eth-mainnet.g.alchemy.com/v2/KEY123')).toBe(
      'https://eth-mainnet.g.alchemy.com/••••••••',
    )
    expect(maskUrls('https://rpc.example/?apikey=KEY123')).toBe('https://rpc.example/••••••••')
    expect(maskUrls('wss://user:pass@node.example:8546')).toBe('wss://••••••••@node.example:8546')
    expect(maskUrls('http://127.0.0.1:8545, https://a.example/KEY')).toBe(
      'http://127.0.0.1:8545, https://a.example/••••••••',
    )
    expect(maskUrls('http://127.0.0.1:8545/')).toBe('http://127.0.0.1:8545')
  })

  it('leaves a value the server masked, and plain values, as they are', () => {
    expect(maskUrls('https://node.example/••••••••')).toBe('https://node.example/••••••••')
    expect(maskUrls('3000 ms')).toBe('3000 ms')
  })
})
