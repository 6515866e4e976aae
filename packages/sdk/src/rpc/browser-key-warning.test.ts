// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { connectNode } from './connect-node.ts'

describe('speedyNodeApiKey in a browser build', () => {
  it('warns once that the key is public', () => {
    const onWarning = vi.fn()
    connectNode({ chainId: 1, speedyNodeApiKey: 'k', onWarning })
    connectNode({ chainId: 5, speedyNodeApiKey: 'k', onWarning })
    expect(onWarning).toHaveBeenCalledTimes(1)
    expect(onWarning.mock.calls[0]![0]).toMatch(/speedyNodeApiKey .* browser/)
  })
})
