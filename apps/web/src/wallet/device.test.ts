import { describe, expect, it } from 'vitest'
import { describeDevice, isNoNode } from './device.ts'
import { explorerLink } from './explorers.ts'

describe('describeDevice', () => {
  it('names the browser and the system', () => {
    expect(
      describeDevice(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome on macOS')
    expect(
      describeDevice(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iPhone')
    expect(
      describeDevice(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toBe('Edge on Windows')
    expect(
      describeDevice('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'),
    ).toBe('Firefox on Linux')
    expect(describeDevice(null)).toBe('Unknown device')
    expect(describeDevice('curl/8.0')).toBe('A browser')
  })
})

describe('isNoNode', () => {
  it("recognises the gateway's answer for a chain it does not serve, anywhere in the causes", () => {
    expect(isNoNode({ name: 'HttpRequestError', status: 404 })).toBe(true)
    expect(isNoNode({ cause: { code: 4901 } })).toBe(true)
    expect(isNoNode({ status: 502 })).toBe(false)
    expect(isNoNode(undefined)).toBe(false)
  })
})

describe('explorerLink', () => {
  it("links an address on a chain's explorer, none for a local chain", () => {
    expect(explorerLink(1, '0xabc')).toEqual({
      name: 'Etherscan',
      href: 'https://etherscan.io/address/0xabc',
    })
    expect(explorerLink(31337, '0xabc')).toBeUndefined()
    expect(explorerLink(undefined, '0xabc')).toBeUndefined()
  })
})
