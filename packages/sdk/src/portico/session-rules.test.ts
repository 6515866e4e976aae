import { describe, expect, it } from 'vitest'
import { createStore } from '../store/store.ts'
import { initialWalletState, type WalletState } from '../wallet/types.ts'
import type { AuthState, SessionLostReason } from './auth-machine.ts'
import { endSessionOnWalletChange } from './session-rules.ts'

const primary = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const linked = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const stranger = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

function setup() {
  const wallet = createStore<WalletState>({
    ...initialWalletState,
    status: 'connected',
    address: primary,
    chainId: 1,
  })
  const auth = createStore<AuthState>({
    status: 'authenticated',
    user: { id: 'u1', address: primary, addresses: [primary, linked], chainId: 1 },
  })
  const lost: SessionLostReason[] = []
  endSessionOnWalletChange(wallet, auth, (reason) => lost.push(reason))
  const switchTo = (address: `0x${string}`) => wallet.set((s) => ({ ...s, address }))
  return { lost, switchTo }
}

describe('endSessionOnWalletChange', () => {
  it("keeps the session when the wallet switches to another of the user's wallets", () => {
    const { lost, switchTo } = setup()
    switchTo(linked.toLowerCase() as `0x${string}`)
    switchTo(primary)
    expect(lost).toEqual([])
  })

  it('ends it when the wallet switches to a wallet that is not linked', () => {
    const { lost, switchTo } = setup()
    switchTo(stranger)
    expect(lost).toEqual(['account_changed'])
  })
})
