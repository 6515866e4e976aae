import { Router } from 'wouter'
import { AppWrapper } from './shell/app-wrapper.tsx'
import { RevealProvider } from './reveal/reveal-provider.tsx'
import type { RevealController } from './reveal/reveal.ts'
import { ThemeProvider } from './theme/theme-provider.tsx'
import type { ThemeStore } from './theme/theme-store.ts'
import { pages } from './pages/page-list.ts'
import { PorticoProvider } from '@portico/react'
import type { Portico } from '@portico/sdk/portico'
import { ConnectDialogProvider } from './wallet/connect-dialog-provider.tsx'
import { AppPageViews } from './tracking/page-views.tsx'
import { AppVersionNotice } from './version/version-notice.tsx'

/** What the entry point (browser or pre-render) builds once and injects. */
export interface AppServices {
  theme: ThemeStore
  reveal: RevealController
  /** Wallet, sign-in and backend client (created once; started by the browser entry). */
  portico: Portico
}

/** Providers and the page table; the app wrapper, not the router, resolves every path. */
export function App({ services, ssrPath }: { services: AppServices; ssrPath?: string }) {
  return (
    <ThemeProvider store={services.theme}>
      <PorticoProvider portico={services.portico}>
        <RevealProvider controller={services.reveal}>
          <Router ssrPath={ssrPath}>
            <ConnectDialogProvider>
              <AppWrapper pages={pages} />
              <AppPageViews />
              <AppVersionNotice />
            </ConnectDialogProvider>
          </Router>
        </RevealProvider>
      </PorticoProvider>
    </ThemeProvider>
  )
}
