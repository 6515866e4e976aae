import { createContext, createElement, useContext, useMemo, type ReactNode } from 'react'
import type { QueryClient } from '@tanstack/react-query'
import type { Portico } from '@portico/sdk/portico'
import type { Watchers } from './watchers.ts'

/**
 * What the hooks below one provider share: the query client when the app has none, and the
 * watchers that keep queries current. The hooks create them on first use (query-client.ts), so
 * this module, which every page loads, does not load the query library.
 */
export interface Shared {
  queryClient?: QueryClient
  watchers?: Watchers
}

const PorticoContext = createContext<{ portico: Portico; shared: Shared } | null>(null)

/**
 * Makes one Portico client (created once with `createPortico`, outside React) available to the
 * hooks below it. The provider does not start anything; call `portico.start()` at app start.
 *
 * Data hooks (`useNode`, `useLiveQuery`, `useRoles`) keep their data with TanStack Query: in the app's
 * `QueryClient` when a `QueryClientProvider` is above this provider, else in one this provider
 * owns, created when the first of them renders (see `usePorticoQueryClient`).
 */
export function PorticoProvider({ portico, children }: { portico: Portico; children: ReactNode }) {
  // A new client starts with nothing shared: data of the old one is not shown for the new one.
  const value = useMemo(() => ({ portico, shared: {} }), [portico])
  // createElement rather than JSX: package modules are `.ts` (exports map `./*` → `./src/*.ts`).
  return createElement(PorticoContext.Provider, { value }, children)
}

/** The nearest provider's client and what its hooks share. @throws outside a `PorticoProvider`. */
export function usePorticoContext(): { portico: Portico; shared: Shared } {
  const value = useContext(PorticoContext)
  if (!value) throw new Error('usePortico must be used inside <PorticoProvider>')
  return value
}

/** The Portico client of the nearest provider. @throws outside a `PorticoProvider`. */
export function usePortico(): Portico {
  return usePorticoContext().portico
}
