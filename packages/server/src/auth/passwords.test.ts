import bcrypt from 'bcryptjs'
import { describe, expect, it } from 'vitest'
import { BCRYPT_COST, BCRYPT_HASH, hashPassword, NOBODY_HASH } from './passwords.ts'

describe('the hash an unknown username is checked against', () => {
  it('costs what a real password hash costs, so a wrong name answers as slowly as a wrong password', async () => {
    expect(NOBODY_HASH).toMatch(BCRYPT_HASH)
    expect(bcrypt.getRounds(NOBODY_HASH)).toBe(BCRYPT_COST)
    expect(bcrypt.getRounds(await hashPassword('correct horse'))).toBe(
      bcrypt.getRounds(NOBODY_HASH),
    )
  })
})
