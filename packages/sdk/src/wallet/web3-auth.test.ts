import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Web3AuthError } from '../errors/wallet.ts'
import { web3Auth } from './web3-auth.ts'

// Web3Auth is a hosted service: its SDK is faked at the SDK boundary (the vendors/ module), with
// a switch per step, to check each catalogue cause.
const sdk = vi.hoisted(() => ({
  loads: 0,
  fail: undefined as 'init' | 'connect' | 'accounts' | undefined,
  options: undefined as unknown,
}))
vi.mock('./vendors/web3-auth-sdk.ts', () => {
  sdk.loads++
  class Web3Auth {
    provider = null
    constructor(options: unknown) {
      sdk.options = options
    }
    async init() {
      if (sdk.fail === 'init') throw new Error('network down')
    }
    async connect() {
      if (sdk.fail === 'connect') throw new Error('popup closed')
      return {
        request: async () => (sdk.fail === 'accounts' ? [] : ['0x' + '11'.repeat(20)]),
        on() {},
        removeListener() {},
      }
    }
    async logout() {}
  }
  return { Web3Auth }
})

/** Runs the connector's start step the way wagmi's connect would, minus wagmi. */
async function start(clientId: string | undefined) {
  const connector = web3Auth({ clientId })({
    chains: [{ id: 1 }] as never,
    emitter: { emit() {} } as never,
    providers: [],
  })
  return connector.connect()
}

beforeEach(() => {
  sdk.fail = undefined
})

describe('web3Auth connector', () => {
  it('refuses without a client id, before loading the SDK', async () => {
    const failure = await start(undefined).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(Web3AuthError)
    expect((failure as Web3AuthError).shortMessage).toBe(
      'Could not connect via Web3Auth, client id missing',
    )
    expect(sdk.loads).toBe(0)
  })

  it.each([
    ['init', 'error during initialization', 'network down'],
    ['connect', 'error in connecting to provider', 'popup closed'],
    ['accounts', 'error while authenticating', 'no account after login'],
  ] as const)('a failing %s step gives "%s" with the cause kept', async (step, reason, cause) => {
    sdk.fail = step
    const failure = (await start('client-1').catch((error: unknown) => error)) as Web3AuthError
    expect(failure.name).toBe('Web3AuthError')
    expect(failure.shortMessage).toBe(`Could not connect via Web3Auth, ${reason}`)
    expect((failure.cause as Error).message).toBe(cause)
  })

  it('starts on chain 0x1 by default and connects', async () => {
    const result = await start('client-1')
    expect(sdk.options).toMatchObject({ clientId: 'client-1', defaultChainId: '0x1' })
    expect(result.accounts).toHaveLength(1)
  })
})
