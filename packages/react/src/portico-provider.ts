import { createContext, createElement, useContext, type ReactNode } from 'react'
import type { Portico } from '@portico/sdk/portico'

const PorticoContext = createContext<Portico | null>(null)

/**
 * Makes one Portico client (created once with `createPortico`, outside React) available to the
 * hooks below it. The provider does not start anything; call `portico.start()` at app start.
 */
export function PorticoProvider({ portico, children }: { portico: Portico; children: ReactNode }) {
  // createElement rather than JSX: package modules are `.ts` (exports map `./*` → `./src/*.ts`).
  return createElement(PorticoContext.Provider, { value: portico }, children)
}

/** The Portico client of the nearest provider. @throws outside a `PorticoProvider`. */
export function usePortico(): Portico {
  const portico = useContext(PorticoContext)
  if (!portico) throw new Error('usePortico must be used inside <PorticoProvider>')
  return portico
}
