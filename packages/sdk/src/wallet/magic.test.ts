import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { MagicLinkError } from '../errors/wallet.ts'
import { magicLink } from './magic.ts'

// Magic is a hosted service: its SDK is faked at the SDK boundary (vendors/ module).
const sdk = vi.hoisted(() => ({
  loads: 0,
  fail: false,
  emails: [] as string[],
  options: undefined as unknown,
}))
vi.mock('./vendors/magic-sdk.ts', () => {
  sdk.loads++
  class Magic {
    rpcProvider = {
      request: async ({ method }: { method: string }) =>
        method === 'eth_chainId' ? '0x1' : ['0x' + '33'.repeat(20)],
      on() {},
      removeListener() {},
    }
    auth = {
      loginWithMagicLink: async ({ email }: { email: string }) => {
        if (sdk.fail) throw new Error('link expired')
        sdk.emails.push(email)
        return 'did-token'
      },
    }
    user = { isLoggedIn: async () => true, logout: async () => true }
    constructor(_key: string, options: unknown) {
      sdk.options = options
    }
  }
  return { Magic }
})

function connect(apiKey: string | undefined, email?: string) {
  const connector = magicLink({ apiKey, chainId: 1, rpcUrl: 'http://127.0.0.1:1/api/rpc/1' })({
    chains: [{ id: 1 }] as never,
    emitter: { emit() {} } as never,
    providers: [],
  })
  return connector.connect({ email } as never)
}

beforeEach(() => {
  sdk.fail = false
})

describe('magicLink connector', () => {
  it('refuses without an API key or an email, before loading the SDK', async () => {
    const noKey = (await connect(undefined, 'a@example.org').catch(
      (e: unknown) => e,
    )) as MagicLinkError
    expect(noKey.shortMessage).toBe('Could not connect via email link, API key missing')
    const noEmail = (await connect('pk_test').catch((e: unknown) => e)) as MagicLinkError
    expect(noEmail.shortMessage).toBe('Could not connect via email link, email address missing')
    expect(sdk.loads).toBe(0)
  })

  it('emails the link to the address given and connects to the Magic wallet', async () => {
    const result = await connect('pk_test', 'a@example.org')
    expect(sdk.emails).toEqual(['a@example.org'])
    expect(sdk.options).toEqual({ network: { rpcUrl: 'http://127.0.0.1:1/api/rpc/1', chainId: 1 } })
    expect(result).toMatchObject({ chainId: 1 })
  })

  it('wraps a failed login, keeping the cause', async () => {
    sdk.fail = true
    const failure = (await connect('pk_test', 'a@example.org').catch(
      (e: unknown) => e,
    )) as MagicLinkError
    expect(failure.name).toBe('MagicLinkError')
    expect(failure.shortMessage).toBe('Could not connect via email link, link expired')
    expect((failure.cause as Error).message).toBe('link expired')
  })
})
