import { StrictMode, startTransition } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { App, type AppServices } from './app.tsx'
import { createRevealController } from './reveal/reveal.ts'
import { createSafeStorage } from './storage/safe-storage.ts'
import { createThemeStore } from './theme/theme-store.ts'
import { createPortico } from '@portico/sdk/portico'
import { porticoConfigFromEnv } from './wallet/config.ts'
import './styles.css'
import './site/site.css'

/** Browser entry: builds the services once, then hydrates the pre-rendered page or renders. */
function start() {
  const html = document.documentElement
  // Tells the inline script's fallback that the app started, so it leaves reveal hiding on.
  html.setAttribute('data-app', 'live')

  const storage = createSafeStorage(() => window.localStorage)
  const services: AppServices = {
    theme: createThemeStore({
      storage,
      matchMedia:
        typeof window.matchMedia === 'function' ? window.matchMedia.bind(window) : undefined,
      events: window,
      root: html,
    }),
    reveal: createRevealController({
      root: document,
      IntersectionObserver: window.IntersectionObserver,
      MutationObserver: window.MutationObserver,
      reducedMotion: () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false,
    }),
    portico: createPortico({
      ...porticoConfigFromEnv(import.meta.env, window.location.origin),
      storage,
      window,
    }),
  }
  // Restores the session (only when this browser signed in before) and the last wallet.
  void services.portico.start()

  const container = document.getElementById('root')
  if (!container) throw new Error('index.html has no #root element')
  const app = (
    <StrictMode>
      <App services={services} />
    </StrictMode>
  )

  // index.html carries the pre-rendered Home page; the server sends it for every path, so only
  // hydrate when the browser is on the path it was rendered for.
  // Both as a transition: React then renders in slices of a few milliseconds that yield to the
  // browser, instead of one task long enough to delay a tap on a slow phone.
  if (container.dataset.prerendered === window.location.pathname) {
    startTransition(() => {
      hydrateRoot(container, app)
    })
  } else {
    container.replaceChildren()
    delete container.dataset.prerendered
    const root = createRoot(container)
    startTransition(() => {
      root.render(app)
    })
  }
  html.classList.remove('client-route')
}

// Evaluating the bundle is one task of its own; building the services and starting the hydration
// is the next one, so the browser can paint and answer input between the two, and neither is long.
setTimeout(start, 0)
