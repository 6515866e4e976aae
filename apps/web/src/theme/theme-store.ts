import type { KeyValueStore } from '../storage/safe-storage.ts'
import {
  DARK_SCHEME_QUERY,
  DEFAULT_THEME,
  THEME_STORAGE_KEY,
  parseTheme,
  resolveTheme,
  type ResolvedTheme,
  type Theme,
} from './theme.ts'

/** What the UI reads: the user's choice and the colours it resolves to. */
export interface ThemeSnapshot {
  theme: Theme
  resolved: ResolvedTheme
}

/** A tiny external store (for `useSyncExternalStore`) that owns the theme of one document. */
export interface ThemeStore {
  getSnapshot(): ThemeSnapshot
  subscribe(listener: () => void): () => void
  setTheme(theme: Theme): void
  /** Removes the media-query and storage listeners. */
  destroy(): void
}

/** What the store needs from the browser, injected so tests can pass their own. */
export interface ThemeStoreEnvironment {
  storage: KeyValueStore
  /** `window.matchMedia`; absent in very old browsers, then `system` resolves to light. */
  matchMedia: ((query: string) => MediaQueryList) | undefined
  /** Receives `storage` events from other tabs (normally `window`). */
  events: Pick<Window, 'addEventListener' | 'removeEventListener'>
  /** The element whose `data-theme` / `data-theme-choice` attributes CSS keys on (`<html>`). */
  root: HTMLElement
}

/** The snapshot used for server rendering and hydration: the default theme. */
export const SERVER_THEME_SNAPSHOT: ThemeSnapshot = Object.freeze({
  theme: DEFAULT_THEME,
  resolved: resolveTheme(DEFAULT_THEME, false),
})

/**
 * Creates the store, applies the stored theme to `root` at once (the inline script in index.html
 * already did the same before first paint) and keeps it applied when the OS colour scheme changes
 * (for `system`) or another tab stores a new choice.
 */
export function createThemeStore(env: ThemeStoreEnvironment): ThemeStore {
  const listeners = new Set<() => void>()
  const media = env.matchMedia?.(DARK_SCHEME_QUERY)
  let theme = parseTheme(env.storage.getItem(THEME_STORAGE_KEY))
  let snapshot = compute()
  apply()

  function compute(): ThemeSnapshot {
    return { theme, resolved: resolveTheme(theme, media?.matches ?? false) }
  }

  // data-theme drives the colours; data-theme-choice lets CSS highlight the chosen option of the
  // theme control from the first frame, before the pre-rendered control is hydrated.
  function apply() {
    env.root.setAttribute('data-theme', snapshot.resolved)
    env.root.setAttribute('data-theme-choice', snapshot.theme)
  }

  function update() {
    const next = compute()
    if (next.theme === snapshot.theme && next.resolved === snapshot.resolved) return
    snapshot = next
    apply()
    for (const listener of listeners) listener()
  }

  const onSchemeChange = () => update()
  const onStorage = (event: StorageEvent) => {
    // key === null means another tab cleared all storage: fall back to the default.
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return
    theme = parseTheme(event.key === null ? null : event.newValue)
    update()
  }
  media?.addEventListener('change', onSchemeChange)
  env.events.addEventListener('storage', onStorage)

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    setTheme(next) {
      theme = parseTheme(next)
      env.storage.setItem(THEME_STORAGE_KEY, theme)
      update()
    },
    destroy() {
      media?.removeEventListener('change', onSchemeChange)
      env.events.removeEventListener('storage', onStorage)
      listeners.clear()
    },
  }
}

/** A store that never changes, for server rendering. */
export function createStaticThemeStore(
  snapshot: ThemeSnapshot = SERVER_THEME_SNAPSHOT,
): ThemeStore {
  return {
    getSnapshot: () => snapshot,
    subscribe: () => () => {},
    setTheme: () => {},
    destroy: () => {},
  }
}
