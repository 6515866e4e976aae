// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { lazy, type JSX } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { RevealProvider } from '../reveal/reveal-provider.tsx'
import type { RevealController } from '../reveal/reveal.ts'
import { ThemeProvider } from '../theme/theme-provider.tsx'
import { createStaticThemeStore } from '../theme/theme-store.ts'
import { PorticoProvider } from '@portico/react'
import { usePageParams } from './page-params.ts'
import { createPortico } from '@portico/sdk/portico'
import { createMemoryStorage } from '@portico/test-kit/memory-storage'
import { AppWrapper } from './app-wrapper.tsx'
import type { PageDefinition } from './page-table.ts'

function Broken(): never {
  throw new Error('boom')
}

/** A page whose code arrives when the test says so. */
function deferredPage() {
  let resolve!: () => void
  const loaded = new Promise<{ default: () => JSX.Element }>((done) => {
    resolve = () => done({ default: () => <h1>Slow page</h1> })
  })
  return { component: lazy(() => loaded), resolve }
}

function ItemPage() {
  const { id } = usePageParams<'/items/:id'>()
  return <h1>Item {id}</h1>
}

const slow = deferredPage()
const testPages: PageDefinition[] = [
  {
    path: '/',
    title: 'Home title',
    bodyClass: 'page-home',
    navLabel: 'Home',
    component: lazy(async () => ({ default: () => <h1 data-reveal="">Home</h1> })),
  },
  {
    path: '/broken',
    title: 'Broken title',
    bodyClass: 'page-broken',
    component: lazy(async () => ({ default: Broken })),
  },
  {
    path: '/slow',
    title: 'Slow title',
    bodyClass: 'page-slow',
    component: slow.component,
  },
  {
    path: '/items/:id',
    title: 'Item title',
    bodyClass: 'page-item',
    component: lazy(async () => ({ default: ItemPage })),
  },
  {
    path: '/private',
    title: 'Private title',
    bodyClass: 'page-private',
    auth: 'required',
    heading: 'Private',
    component: lazy(async () => ({ default: () => <p>Secret content</p> })),
  },
  {
    path: '*',
    title: 'Missing title',
    bodyClass: 'page-missing',
    component: lazy(async () => ({ default: () => <h1>Missing</h1> })),
  },
]

function renderAt(path: string) {
  const location = memoryLocation({ path })
  const reveal: RevealController = { scan: vi.fn(), disconnect: vi.fn() }
  // Never started: the authentication state stays "undefined" unless a test drives it.
  const portico = createPortico({
    serverUrl: 'http://localhost',
    appId: 'test',
    chains: [],
    storage: createMemoryStorage(),
  })
  render(
    <ThemeProvider store={createStaticThemeStore()}>
      <RevealProvider controller={reveal}>
        <Router hook={location.hook}>
          <PorticoProvider portico={portico}>
            <AppWrapper pages={testPages} />
          </PorticoProvider>
        </Router>
      </RevealProvider>
    </ThemeProvider>,
  )
  return { navigate: (to: string) => act(() => location.navigate(to)), reveal, portico }
}

afterEach(() => {
  cleanup()
  document.body.className = ''
})

describe('AppWrapper', () => {
  it('asks visitors to sign in on an auth-required page instead of showing it', async () => {
    const { portico } = renderAt('/private')
    // Before the session is known: a loading state, not the page and not the prompt.
    expect(screen.getByRole('status').textContent).toMatch(/Loading/)
    // This browser never signed in, so start() knows without asking the server.
    await act(() => portico.start())
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Private')
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy()
    expect(screen.queryByText('Secret content')).toBeNull()
    expect(document.title).toBe('Private title')
  })

  it('renders the page for the path, with its title and body class', async () => {
    document.body.className = 'foreign'
    renderAt('/')
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy()
    expect(document.title).toBe('Home title')
    expect([...document.body.classList].sort()).toEqual(['foreign', 'page-home'])
  })

  it('renders a page with a route parameter, giving it its parameters', async () => {
    renderAt('/items/42%20b')
    expect(await screen.findByRole('heading', { name: 'Item 42 b' })).toBeTruthy()
    expect(document.title).toBe('Item title')
    expect(document.body.classList.contains('page-item')).toBe(true)
  })

  it('swaps title and body class on navigation and rescans for reveal targets', async () => {
    const { navigate, reveal } = renderAt('/')
    await screen.findByRole('heading', { name: 'Home' })
    expect(reveal.scan).toHaveBeenCalledTimes(1)
    await navigate('/nowhere')
    expect(await screen.findByRole('heading', { name: 'Missing' })).toBeTruthy()
    expect(document.title).toBe('Missing title')
    expect([...document.body.classList]).toEqual(['page-missing'])
    expect(reveal.scan).toHaveBeenCalledTimes(2)
  })

  it('shows a loading state until the page code arrives, then scans its elements', async () => {
    const { reveal } = renderAt('/slow')
    expect(screen.getByRole('status').textContent).toMatch(/Loading/)
    expect(reveal.scan).not.toHaveBeenCalled()
    await act(async () => slow.resolve())
    expect(await screen.findByRole('heading', { name: 'Slow page' })).toBeTruthy()
    expect(reveal.scan).toHaveBeenCalledTimes(1)
  })

  it('shows a friendly error with a way back when a page throws, and recovers on navigation', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { navigate } = renderAt('/broken')
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/Something went wrong/)
    expect(screen.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe(
      '/',
    )
    // The header stays usable around the error.
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy()
    await navigate('/')
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    vi.mocked(console.error).mockRestore()
  })
})
