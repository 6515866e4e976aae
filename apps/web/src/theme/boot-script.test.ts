// @vitest-environment happy-dom
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseTheme, resolveTheme } from './theme.ts'

// The inline script in index.html must resolve the theme exactly as theme.ts does, or the first
// frame and the hydrated app would disagree. Runs the real script text against each case.
const indexHtml = fs.readFileSync(path.resolve(import.meta.dirname, '../../index.html'), 'utf8')
const scriptText = /<script>([\s\S]*?)<\/script>/.exec(indexHtml)?.[1]

interface BootCase {
  stored: string | null | 'throws'
  dark: boolean
  reducedMotion?: boolean
  observer?: boolean
  path?: string
}

function runBootScript(c: BootCase) {
  if (!scriptText) throw new Error('index.html has no inline script')
  const html = document.createElement('html')
  const classes = html.classList
  const fakeWindow = {
    localStorage: {
      getItem: (key: string) => {
        if (c.stored === 'throws') throw new DOMException('denied', 'SecurityError')
        return key === 'theme' ? c.stored : null
      },
    },
    matchMedia: (query: string) => ({
      matches: query.includes('color-scheme: dark')
        ? c.dark
        : query.includes('reduced-motion')
          ? !!c.reducedMotion
          : false,
    }),
    ...(c.observer === false ? {} : { IntersectionObserver: class {} }),
  }
  const run = new Function(
    'window',
    'document',
    'location',
    'addEventListener',
    'setTimeout',
    scriptText,
  )
  run(
    fakeWindow,
    { documentElement: html },
    { pathname: c.path ?? '/' },
    () => {},
    () => {},
  )
  return {
    theme: html.getAttribute('data-theme'),
    choice: html.getAttribute('data-theme-choice'),
    classes,
  }
}

describe('index.html inline boot script', () => {
  const stored = [null, 'light', 'dark', 'system', 'purple', 'throws'] as const
  for (const value of stored) {
    for (const dark of [false, true]) {
      it(`stored ${String(value)}, OS ${dark ? 'dark' : 'light'} → same theme as theme.ts`, () => {
        const choice = parseTheme(value === 'throws' ? null : value)
        const result = runBootScript({ stored: value, dark })
        expect(result.theme).toBe(resolveTheme(choice, dark))
        expect(result.choice).toBe(choice)
      })
    }
  }

  it('turns on reveal hiding only with IntersectionObserver and motion allowed', () => {
    expect(runBootScript({ stored: null, dark: false }).classes.contains('js-reveal')).toBe(true)
    expect(
      runBootScript({ stored: null, dark: false, reducedMotion: true }).classes.contains(
        'js-reveal',
      ),
    ).toBe(false)
    expect(
      runBootScript({ stored: null, dark: false, observer: false }).classes.contains('js-reveal'),
    ).toBe(false)
  })

  it('marks paths other than the pre-rendered one so the Home HTML stays hidden there', () => {
    expect(runBootScript({ stored: null, dark: false }).classes.contains('client-route')).toBe(
      false,
    )
    expect(
      runBootScript({ stored: null, dark: false, path: '/account' }).classes.contains(
        'client-route',
      ),
    ).toBe(true)
  })
})
