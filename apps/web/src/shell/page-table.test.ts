// @vitest-environment happy-dom
import { lazy } from 'react'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { pageDescriptions } from '../pages/page-descriptions.ts'
import { pages } from '../pages/page-list.ts'
import {
  matchPage,
  matchPath,
  normalizePath,
  resolvePage,
  syncBodyClass,
  type PageDefinition,
  type PathParams,
} from './page-table.ts'

const Stub = lazy(async () => ({ default: () => null }))

const byPath = (path: string) => pages.find((page) => page.path === path) as PageDefinition

describe('the page table', () => {
  it('has Home, Account, Analytics, the admin console, a page per wallet address and a Not found page', () => {
    expect(pages.map((page) => page.path)).toEqual([
      '/',
      '/account',
      '/analytics',
      '/admin',
      '/admin/:section',
      '/u/:address',
      '*',
    ])
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

  it("gives a parameter that breaks its page's rule the Not found page", () => {
    expect(resolvePage(pages, '/u/0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBe(
      byPath('/u/:address'),
    )
    expect(resolvePage(pages, '/u/not-an-address')).toBe(byPath('*'))
    expect(resolvePage(pages, '/u/0x1234')).toBe(byPath('*'))
    expect(resolvePage(pages, '/admin/users')).toBe(byPath('/admin/:section'))
    expect(resolvePage(pages, '/admin/usersx')).toBe(byPath('*'))
    expect(matchPath('/u/:id', '/u/7', { id: '[0-9]+' })).toEqual({ id: '7' })
    expect(matchPath('/u/:id', '/u/7a', { id: '[0-9]+' })).toBeNull()
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

describe('route parameters', () => {
  it('matchPath takes one segment per parameter, decoded, and nothing else', () => {
    expect(matchPath('/u/:address', '/u/0xAbC')).toEqual({ address: '0xAbC' })
    expect(matchPath('/items/:id/edit', '/items/a%20b/edit/')).toEqual({ id: 'a b' })
    expect(matchPath('/u/:address', '/u')).toBeNull()
    expect(matchPath('/u/:address', '/u/a/b')).toBeNull()
    expect(matchPath('/u/:address', '/v/a')).toBeNull()
    expect(matchPath('/u/:address', '/u/%E0%A4%A')).toBeNull()
  })

  it('an exact path wins over a pattern; unknown paths get the * page', () => {
    const pages = [
      { path: '/u/me', title: 'Me', bodyClass: 'me', component: Stub },
      { path: '/u/:address', title: 'U', bodyClass: 'u', component: Stub },
      { path: '*', title: 'Missing', bodyClass: 'missing', component: Stub },
    ]
    expect(matchPage(pages, '/u/me').page.title).toBe('Me')
    expect(matchPage(pages, '/u/0x1')).toMatchObject({
      page: { title: 'U' },
      params: { address: '0x1' },
    })
    expect(matchPage(pages, '/nope').page.title).toBe('Missing')
    expectTypeOf<PathParams<'/items/:id/:tab'>>().toEqualTypeOf<{ id: string } & { tab: string }>()
  })
})

describe('page descriptions', () => {
  it('every page of the table has one', () => {
    for (const page of pages) expect(pageDescriptions[page.path], page.path).toMatch(/\w{3}/)
  })
})
