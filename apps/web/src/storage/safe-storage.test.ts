import { describe, expect, it } from 'vitest'
import { createSafeStorage } from './safe-storage.ts'

/** A minimal Storage backed by a Map, with switches to make it fail. */
function fakeStorage(options: { failGet?: boolean; failSet?: boolean } = {}): Storage {
  const data = new Map<string, string>()
  return {
    getItem(key: string) {
      if (options.failGet) throw new DOMException('denied', 'SecurityError')
      return data.get(key) ?? null
    },
    setItem(key: string, value: string) {
      if (options.failSet) throw new DOMException('full', 'QuotaExceededError')
      data.set(key, value)
    },
  } as Storage
}

describe('createSafeStorage', () => {
  it('reads and writes the real storage when it works', () => {
    const backing = fakeStorage()
    const storage = createSafeStorage(() => backing)
    storage.setItem('theme', 'dark')
    expect(backing.getItem('theme')).toBe('dark')
    expect(storage.getItem('theme')).toBe('dark')
    expect(storage.inMemory).toBe(false)
  })

  it('falls back to memory when even reaching storage throws', () => {
    const storage = createSafeStorage(() => {
      throw new DOMException('denied', 'SecurityError')
    })
    expect(storage.getItem('theme')).toBeNull()
    storage.setItem('theme', 'dark')
    expect(storage.getItem('theme')).toBe('dark')
    expect(storage.inMemory).toBe(true)
  })

  it('falls back to memory when reads throw', () => {
    const storage = createSafeStorage(() => fakeStorage({ failGet: true }))
    expect(storage.getItem('theme')).toBeNull()
    storage.setItem('theme', 'system')
    expect(storage.getItem('theme')).toBe('system')
  })

  it('keeps reads consistent with writes after a write fails (quota)', () => {
    const backing = fakeStorage()
    backing.setItem('theme', 'light')
    const failing = fakeStorage({ failSet: true })
    failing.getItem = backing.getItem
    const storage = createSafeStorage(() => failing)
    expect(storage.getItem('theme')).toBe('light')
    storage.setItem('theme', 'dark')
    expect(storage.inMemory).toBe(true)
    expect(storage.getItem('theme')).toBe('dark')
  })

  it('treats a missing storage as memory', () => {
    const storage = createSafeStorage(() => undefined)
    storage.setItem('theme', 'dark')
    expect(storage.getItem('theme')).toBe('dark')
    expect(storage.inMemory).toBe(true)
  })
})
