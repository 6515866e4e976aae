import { describe, expect, it } from 'vitest'
import { masterKeyCheck } from './master-key.ts'
import { ParseError } from './parse-error.ts'

const KEY = 'a-master-key-of-some-length'

function refusal(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    if (error instanceof ParseError) return `${error.code} ${error.message}`
    throw error
  }
  throw new Error('not refused')
}

describe('the master key check', () => {
  const check = masterKeyCheck({ masterKey: KEY, masterKeyIps: ['127.0.0.1/8', '::1/128'] })

  it('accepts the key from loopback, and a call without one is an ordinary call', () => {
    expect(check(KEY, '127.0.0.1')).toBe(true)
    expect(check(KEY, '::1')).toBe(true)
    expect(check(undefined, '203.0.113.9')).toBe(false)
  })

  it('refuses a wrong key, a key of another length, and the right key from elsewhere', () => {
    expect(refusal(() => check(`${KEY}x`, '127.0.0.1'))).toBe(
      '119 unauthorized: master key is not valid.',
    )
    expect(refusal(() => check('', '127.0.0.1'))).toBe('119 unauthorized: master key is not valid.')
    expect(refusal(() => check(KEY, '203.0.113.9'))).toMatch(
      /^119 unauthorized: master key is not accepted from 203\.0\.113\.9: add the address to MASTER_KEY_IPS/,
    )
  })

  it('takes addresses and ranges from MASTER_KEY_IPS', () => {
    const office = masterKeyCheck({ masterKey: KEY, masterKeyIps: ['10.1.0.0/16'] })
    expect(office(KEY, '10.1.2.3')).toBe(true)
    expect(refusal(() => office(KEY, '127.0.0.1'))).toMatch(/not accepted from 127\.0\.0\.1/)
  })

  it('says the server has none when MASTER_KEY is not set', () => {
    const none = masterKeyCheck({ masterKey: undefined, masterKeyIps: ['127.0.0.1/8'] })
    expect(refusal(() => none('anything', '127.0.0.1'))).toBe(
      '119 unauthorized: master key is not set on this server: set MASTER_KEY to use it.',
    )
  })
})
