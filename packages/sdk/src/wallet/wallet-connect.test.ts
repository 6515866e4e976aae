import { beforeEach, describe, expect, it, vi } from 'vitest'
import { WalletConnectError } from '../errors/wallet.ts'
import { walletConnect } from './wallet-connect.ts'

// WalletConnect's relay is a hosted service: the SDK is faked at its boundary (vendors/ module)
// with switches for a failing init and a relay that never answers.
const sdk = vi.hoisted(() => ({
  loads: 0,
  mode: 'ok' as 'ok' | 'init-fails' | 'relay-silent',
  relayClosed: false,
}))
vi.mock('./vendors/wallet-connect-sdk.ts', () => {
  sdk.loads++
  const listeners = new Map<string, (value: string) => void>()
  const provider = {
    session: undefined,
    signer: { client: { core: { relayer: { transportClose: () => (sdk.relayClosed = true) } } } },
    on: (event: string, listener: (value: string) => void) => listeners.set(event, listener),
    removeListener: (event: string) => listeners.delete(event),
    async connect() {
      if (sdk.mode === 'relay-silent') return new Promise(() => {})
      listeners.get('display_uri')?.('wc:abc@2?relay-protocol=irn&symKey=00')
    },
    async request({ method }: { method: string }) {
      return method === 'eth_chainId' ? '0x1' : ['0x' + '22'.repeat(20)]
    },
    async disconnect() {},
  }
  return {
    EthereumProvider: {
      async init() {
        if (sdk.mode === 'init-fails') throw new Error('Invalid project id')
        return provider
      },
    },
  }
})

function connect(projectId: string | undefined, onDisplayUri = (_uri: string) => {}) {
  const connector = walletConnect({ projectId, chainIds: [1], onDisplayUri, relayTimeoutMs: 50 })({
    chains: [{ id: 1 }] as never,
    emitter: { emit() {} } as never,
    providers: [],
  })
  return connector.connect()
}

beforeEach(() => {
  sdk.mode = 'ok'
  sdk.relayClosed = false
})

describe('walletConnect connector', () => {
  it('refuses without a project id, before loading the SDK', async () => {
    const failure = (await connect(undefined).catch((e: unknown) => e)) as WalletConnectError
    expect(failure.shortMessage).toBe('Could not connect via WalletConnect, project id missing')
    expect(sdk.loads).toBe(0)
  })

  it('hands the pairing URI to the app (for its own QR code) and connects', async () => {
    const uris: string[] = []
    const result = await connect('project-1', (uri) => uris.push(uri))
    expect(uris).toEqual(['wc:abc@2?relay-protocol=irn&symKey=00'])
    expect(result.chainId).toBe(1)
  })

  it('wraps an SDK failure with the catalogue message, keeping the cause', async () => {
    sdk.mode = 'init-fails'
    const failure = (await connect('project-1').catch((e: unknown) => e)) as WalletConnectError
    expect(failure).toBeInstanceOf(WalletConnectError)
    expect(failure.shortMessage).toBe('Could not connect via WalletConnect, Invalid project id')
    expect((failure.cause as Error).message).toBe('Invalid project id')
  })

  it('gives up on a silent relay after its time-out and stops the SDK retrying', async () => {
    sdk.mode = 'relay-silent'
    const failure = (await connect('project-1').catch((e: unknown) => e)) as WalletConnectError
    expect(failure.shortMessage).toBe(
      'Could not connect via WalletConnect, the relay server could not be reached',
    )
    expect(sdk.relayClosed).toBe(true)
  })
})
