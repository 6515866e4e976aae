import { createContext, use, useEffect, type ReactNode } from 'react'
import { noopRevealController, type RevealController } from './reveal.ts'

const RevealContext = createContext<RevealController>(noopRevealController)

/** Shares the app's one reveal controller (created by the entry point). */
export function RevealProvider({
  controller,
  children,
}: {
  controller: RevealController
  children: ReactNode
}) {
  useEffect(() => () => controller.disconnect(), [controller])
  return <RevealContext value={controller}>{children}</RevealContext>
}

/**
 * Render after a page's content, keyed by location: its effect runs once the page (including a
 * lazily loaded one, which commits together with it inside the same Suspense boundary) is in the
 * DOM, so every route change scans the new elements.
 */
export function RevealScan() {
  const controller = use(RevealContext)
  useEffect(() => controller.scan(), [controller])
  return null
}
