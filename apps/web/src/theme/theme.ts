/**
 * Theme values and how they resolve.
 * Pure functions: no DOM or storage access here, so they run anywhere, including the SSR build.
 */

/** The choices a user can make. `system` follows the operating system's colour scheme. */
export const THEMES = ['light', 'dark', 'system'] as const
export type Theme = (typeof THEMES)[number]

/** What is actually painted. */
export type ResolvedTheme = 'light' | 'dark'

/** localStorage key. The inline script in index.html reads the same key. */
export const THEME_STORAGE_KEY = 'theme'

/** The default theme is light. */
export const DEFAULT_THEME: Theme = 'light'

/** Media query that `system` follows. */
export const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)'

/** True when `value` is one of the three allowed themes. */
export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value)
}

/**
 * Reads a stored value: anything missing or not an allowed theme means the default (`light`).
 * @example parseTheme('dark') // 'dark'
 * @example parseTheme('purple') // 'light'
 */
export function parseTheme(value: unknown): Theme {
  return isTheme(value) ? value : DEFAULT_THEME
}

/** Turns a choice into the colours to paint; `system` uses the OS preference. */
export function resolveTheme(theme: Theme, systemPrefersDark: boolean): ResolvedTheme {
  if (theme === 'system') return systemPrefersDark ? 'dark' : 'light'
  return theme
}
