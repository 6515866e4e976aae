import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { checksummedAddress } from './address.ts'

describe('checksummedAddress', () => {
  it('checksums as viem does, whatever the letter case', () => {
    for (const address of [
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      '0xFB6916095CA1DF60BB79CE92CE3EA74C37C5D359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0x00000000000000000000000000000000000000be',
      '0xffffffffffffffffffffffffffffffffffffffff',
    ])
      expect(checksummedAddress(address)).toBe(getAddress(address.toLowerCase()))
  })

  it('refuses what is no address', () => {
    for (const raw of ['', '0x', '0x123', 'bad', `0x${'g'.repeat(40)}`, `${'a'.repeat(42)}`])
      expect(checksummedAddress(raw)).toBeUndefined()
  })
})
