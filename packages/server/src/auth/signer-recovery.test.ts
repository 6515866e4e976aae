import { describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { recoverSigner } from './signer-recovery.ts'

describe('recoverSigner', () => {
  const account = privateKeyToAccount(generatePrivateKey())
  const other = privateKeyToAccount(generatePrivateKey())

  it('recovers the signer of each of many messages signed at once', async () => {
    const messages = Array.from({ length: 12 }, (_, i) => `Sign in, message ${i}`)
    const signed = await Promise.all(
      messages.map(async (message, i) => {
        const signer = i % 2 ? other : account
        return { message, signer, signature: await signer.signMessage({ message }) }
      }),
    )
    const recovered = await Promise.all(
      signed.map(({ message, signature }) => recoverSigner(message, signature)),
    )
    expect(recovered).toEqual(signed.map(({ signer }) => signer.address))
  })

  it('recovers someone else for a signature of another message', async () => {
    const signature = await account.signMessage({ message: 'the message signed' })
    const recovered = await recoverSigner('another message', signature)
    expect(recovered).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(recovered).not.toBe(account.address)
  })

  it('answers undefined for what is not a plain signature, for the caller to check', async () => {
    expect(await recoverSigner('a message', '0x1234')).toBeUndefined()
    expect(await recoverSigner('a message', 'not hex at all')).toBeUndefined()
    // An ERC-6492 wrapped signature (a counterfactual contract wallet) is long, not 65 bytes.
    const wrapped = `0x${'00'.repeat(200)}${'6492'.repeat(16)}`
    expect(await recoverSigner('a message', wrapped)).toBeUndefined()
  })
})
