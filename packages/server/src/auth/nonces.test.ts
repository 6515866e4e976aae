import { describe, expect, it } from 'vitest'
import { testDatabase } from '../../test/helpers.ts'
import { issueNonce } from './nonces.ts'

describe('sign-in nonces', () => {
  it('are unrelated to each other: one does not give the next away', async () => {
    const { db, close } = await testDatabase('pglite')
    try {
      const [a, b] = [await issueNonce(db, 60_000), await issueNonce(db, 60_000)]
      expect(a.nonce).toMatch(/^[0-9a-f]{96}$/)
      // The nonces viem makes are the previous one shifted by a character.
      expect(b.nonce.slice(0, 20)).not.toBe(a.nonce.slice(1, 21))
      expect(a.nonce.includes(b.nonce.slice(0, 16))).toBe(false)
    } finally {
      await close()
    }
  })
})
