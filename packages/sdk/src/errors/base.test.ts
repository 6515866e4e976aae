import { describe, expect, it } from 'vitest'
import { BaseError } from './base.ts'

class InnerError extends BaseError {
  override name = 'InnerError'
}

describe('BaseError', () => {
  it('keeps the short message, the details of its cause and a stable name', () => {
    const error = new BaseError('No response', { cause: new Error('socket hang up') })
    expect(error.name).toBe('PorticoError')
    expect(error.shortMessage).toBe('No response')
    expect(error.details).toBe('socket hang up')
    expect(error.message).toBe('No response\n\nDetails: socket hang up')
    expect(error.version).toMatch(/^@portico\/sdk@\d+\.\d+\.\d+$/)
  })

  it('walks the cause chain to the first match or the innermost error', () => {
    const root = new TypeError('fetch failed')
    const inner = new InnerError('inner', { cause: root })
    const outer = new BaseError('outer', { cause: inner })
    expect(outer.walk()).toBe(root)
    expect(outer.walk((e) => e instanceof InnerError)).toBe(inner)
    expect(outer.walk((e) => e instanceof RangeError)).toBeNull()
    expect(new BaseError('alone').walk()).toBeInstanceOf(BaseError)
  })
})
