import { describe, expect, it } from 'vitest'
import { DEFAULT_THEME, THEME_STORAGE_KEY, isTheme, parseTheme, resolveTheme } from './theme.ts'

describe('theme values', () => {
  it('uses the spec constants: key "theme", default light', () => {
    expect(THEME_STORAGE_KEY).toBe('theme')
    expect(DEFAULT_THEME).toBe('light')
  })

  it.each(['light', 'dark', 'system'])('accepts %s', (value) => {
    expect(isTheme(value)).toBe(true)
    expect(parseTheme(value)).toBe(value)
  })

  it.each([null, undefined, '', 'Dark', 'purple', ' light', 1, {}])(
    'treats %j as light',
    (value) => {
      expect(isTheme(value)).toBe(false)
      expect(parseTheme(value)).toBe('light')
    },
  )

  it('resolves system from the OS preference and keeps explicit choices', () => {
    expect(resolveTheme('system', true)).toBe('dark')
    expect(resolveTheme('system', false)).toBe('light')
    expect(resolveTheme('light', true)).toBe('light')
    expect(resolveTheme('dark', false)).toBe('dark')
  })
})
