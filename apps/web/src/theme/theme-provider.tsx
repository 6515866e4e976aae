import { createContext, use, useSyncExternalStore, type ReactNode } from 'react'
import { SERVER_THEME_SNAPSHOT, type ThemeSnapshot, type ThemeStore } from './theme-store.ts'
import type { Theme } from './theme.ts'

const ThemeContext = createContext<ThemeStore | null>(null)

/** Makes one theme store (created once by the entry point) available to the tree. */
export function ThemeProvider({ store, children }: { store: ThemeStore; children: ReactNode }) {
  return <ThemeContext value={store}>{children}</ThemeContext>
}

/**
 * The current theme choice and a setter. During hydration it reports the server snapshot (the
 * default) and then the real one, so the pre-rendered HTML always matches; the colours themselves
 * never flash because the store, not React, owns `<html data-theme>`.
 */
export function useTheme(): ThemeSnapshot & { setTheme: (theme: Theme) => void } {
  const store = use(ThemeContext)
  if (!store) throw new Error('useTheme must be used inside <ThemeProvider>')
  const snapshot = useSyncExternalStore(
    store.subscribe,
    store.getSnapshot,
    () => SERVER_THEME_SNAPSHOT,
  )
  return { ...snapshot, setTheme: store.setTheme }
}
