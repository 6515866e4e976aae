// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { createSafeStorage } from '../storage/safe-storage.ts'
import { createThemeStore } from './theme-store.ts'

/** A controllable `matchMedia` for one query, like the OS switching colour scheme. */
function fakeMedia(initiallyDark: boolean) {
  const target = new EventTarget()
  const list = Object.assign(target, {
    matches: initiallyDark,
    media: '(prefers-color-scheme: dark)',
  })
  return {
    matchMedia: vi.fn(() => list as unknown as MediaQueryList),
    setDark(dark: boolean) {
      list.matches = dark
      target.dispatchEvent(new Event('change'))
    },
  }
}

function setup(stored: string | null, dark = false) {
  localStorage.clear()
  if (stored !== null) localStorage.setItem('theme', stored)
  const media = fakeMedia(dark)
  const events = new EventTarget() as unknown as Window
  const root = document.createElement('html')
  const store = createThemeStore({
    storage: createSafeStorage(() => localStorage),
    matchMedia: media.matchMedia,
    events,
    root,
  })
  const storageEvent = (key: string | null, newValue: string | null) =>
    events.dispatchEvent(Object.assign(new Event('storage'), { key, newValue }))
  return { store, media, root, storageEvent }
}

describe('createThemeStore', () => {
  it('starts light with nothing stored and applies it to the root', () => {
    const { store, root } = setup(null, true)
    expect(store.getSnapshot()).toEqual({ theme: 'light', resolved: 'light' })
    expect(root.getAttribute('data-theme')).toBe('light')
  })

  it('reads a stored choice and treats an invalid one as light', () => {
    expect(setup('dark').store.getSnapshot().resolved).toBe('dark')
    expect(setup('purple', true).store.getSnapshot()).toEqual({ theme: 'light', resolved: 'light' })
  })

  it('stores a new choice under "theme", applies it and notifies', () => {
    const { store, root } = setup(null)
    const listener = vi.fn()
    store.subscribe(listener)
    store.setTheme('dark')
    expect(localStorage.getItem('theme')).toBe('dark')
    expect(root.getAttribute('data-theme')).toBe('dark')
    expect(root.getAttribute('data-theme-choice')).toBe('dark')
    expect(listener).toHaveBeenCalledTimes(1)
  })

  it('follows the OS scheme live for system only', () => {
    const { store, media, root } = setup('system', false)
    expect(root.getAttribute('data-theme')).toBe('light')
    media.setDark(true)
    expect(store.getSnapshot()).toEqual({ theme: 'system', resolved: 'dark' })
    expect(root.getAttribute('data-theme')).toBe('dark')
    expect(root.getAttribute('data-theme-choice')).toBe('system')

    store.setTheme('light')
    const listener = vi.fn()
    store.subscribe(listener)
    media.setDark(false)
    media.setDark(true)
    expect(listener).not.toHaveBeenCalled()
    expect(root.getAttribute('data-theme')).toBe('light')
  })

  it('follows a choice made in another tab (storage event)', () => {
    const { store, root, storageEvent } = setup(null)
    const listener = vi.fn()
    store.subscribe(listener)
    storageEvent('theme', 'dark')
    expect(root.getAttribute('data-theme')).toBe('dark')
    expect(listener).toHaveBeenCalledTimes(1)
    storageEvent('other-key', 'light')
    expect(root.getAttribute('data-theme')).toBe('dark')
    storageEvent(null, null) // the other tab cleared all storage
    expect(root.getAttribute('data-theme')).toBe('light')
    storageEvent('theme', 'nonsense')
    expect(store.getSnapshot().theme).toBe('light')
  })

  it('keeps a stable snapshot object while nothing changes (useSyncExternalStore)', () => {
    const { store } = setup('dark')
    expect(store.getSnapshot()).toBe(store.getSnapshot())
  })

  it('stops listening after destroy', () => {
    const { store, root, storageEvent, media } = setup('system')
    store.destroy()
    storageEvent('theme', 'dark')
    media.setDark(true)
    expect(root.getAttribute('data-theme')).toBe('light')
  })

  it('works without matchMedia (system resolves to light)', () => {
    const root = document.createElement('html')
    const store = createThemeStore({
      storage: createSafeStorage(() => undefined),
      matchMedia: undefined,
      events: new EventTarget() as unknown as Window,
      root,
    })
    store.setTheme('system')
    expect(store.getSnapshot()).toEqual({ theme: 'system', resolved: 'light' })
  })
})
