import { describe, expect, it } from 'vitest'
import { describeEvent } from './recent-activity.tsx'

describe('describeEvent', () => {
  it('names the event and its arguments, shortening addresses and leaving out where it happened', () => {
    expect(
      describeEvent({
        event: 'Transfer',
        from: '0x0000000000000000000000000000000000000000',
        to: '0x00000000000000000000000000000000000000Aa',
        value: '1180591620717411303424',
        blockNumber: 12,
        transactionHash: '0xabc',
        confirmed: true,
      }),
    ).toBe('Transfer from 0x0000…0000, to 0x0000…00Aa, value 1180591620717411303424')
    expect(describeEvent({ event: 'Ping' })).toBe('Ping')
  })
})
