// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { pages } from '../pages/page-list.ts'
import { normalizePath, resolvePage, syncBodyClass, type PageDefinition } from './page-table.ts'

const byPath = (path: string) => pages.find((page) => page.path === path) as PageDefinition

describe('the page table', () => {
  it('has Home, Account, Analytics and a Not found page', () => {
    expect(pages.map((page) => page.path)).toEqual(['/', '/account', '/analytics', '*'])
  })

  it('gives every page a title and its own body class', () => {
    for (const page of pages) expect(page.title).not.toBe('')
    const classes = pages.map((page) => page.bodyClass)
    expect(new Set(classes).size).toBe(classes.length)
    for (const name of classes) expect(name).toMatch(/^[a-z][a-z0-9-]*$/)
  })
})

describe('resolvePage', () => {
  it('matches exact paths, ignoring a trailing slash', () => {
    expect(resolvePage(pages, '/')).toBe(byPath('/'))
    expect(resolvePage(pages, '/account')).toBe(byPath('/account'))
    expect(resolvePage(pages, '/analytics/')).toBe(byPath('/analytics'))
  })

  it('falls back to the Not found page', () => {
    expect(resolvePage(pages, '/nope')).toBe(byPath('*'))
    expect(resolvePage(pages, '/account/extra')).toBe(byPath('*'))
  })

  it('throws when the table has no fallback', () => {
    expect(() => resolvePage([byPath('/')], '/x')).toThrow(/no "\*" page/)
  })

  it('normalizes paths', () => {
    expect(normalizePath('')).toBe('/')
    expect(normalizePath('///')).toBe('/')
    expect(normalizePath('/a//')).toBe('/a')
  })
})

describe('syncBodyClass', () => {
  it("replaces the previous page's class and leaves other classes alone", () => {
    const body = document.createElement('body')
    body.className = 'page-home foreign'
    syncBodyClass(body.classList, pages, byPath('/account'))
    expect([...body.classList].sort()).toEqual(['foreign', 'page-account'])
    syncBodyClass(body.classList, pages, byPath('*'))
    expect([...body.classList].sort()).toEqual(['foreign', 'page-not-found'])
    syncBodyClass(body.classList, pages, byPath('*'))
    expect([...body.classList].sort()).toEqual(['foreign', 'page-not-found'])
  })
})
