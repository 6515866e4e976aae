// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { waitForInjectedWallet, type InjectedWindow } from './detect-injected.ts'

const provider = { request: async () => null, on() {}, removeListener() {} } as never

function fakeWindow(): InjectedWindow {
  return Object.assign(new EventTarget(), { ethereum: undefined }) as InjectedWindow
}

afterEach(() => {
  vi.useRealTimers()
})

describe('waitForInjectedWallet', () => {
  it('finds a wallet that is already there without waiting', async () => {
    const target = fakeWindow()
    target.ethereum = provider
    await expect(waitForInjectedWallet(target)).resolves.toBe(true)
  })

  it('finds a legacy window.ethereum injected later with ethereum#initialized', async () => {
    vi.useFakeTimers()
    const target = fakeWindow()
    const found = waitForInjectedWallet(target)
    await vi.advanceTimersByTimeAsync(1000)
    target.ethereum = provider
    target.dispatchEvent(new Event('ethereum#initialized'))
    await expect(found).resolves.toBe(true)
  })

  it('finds a wallet that answers the EIP-6963 request', async () => {
    const target = fakeWindow()
    target.addEventListener('eip6963:requestProvider', () =>
      target.dispatchEvent(new Event('eip6963:announceProvider')),
    )
    await expect(waitForInjectedWallet(target)).resolves.toBe(true)
  })

  it('gives up after 3000 ms when nothing appears, not before', async () => {
    vi.useFakeTimers()
    const target = fakeWindow()
    let result: boolean | undefined
    void waitForInjectedWallet(target).then((value) => (result = value))
    await vi.advanceTimersByTimeAsync(2999)
    expect(result).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(result).toBe(false)
  })

  it('still sees a window.ethereum set without the event when time runs out', async () => {
    vi.useFakeTimers()
    const target = fakeWindow()
    const found = waitForInjectedWallet(target, { timeoutMs: 500 })
    target.ethereum = provider
    await vi.advanceTimersByTimeAsync(500)
    await expect(found).resolves.toBe(true)
  })
})
