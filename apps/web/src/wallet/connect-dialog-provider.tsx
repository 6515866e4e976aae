import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react'

// The dialog's code (and through it the wallet stack) loads on the first click of a Connect
// button, never on the first load of a page.
const ConnectDialog = lazy(() => import('./connect-dialog.tsx'))

interface ConnectDialogControl {
  /** Opens the connect dialog; focus returns to the element that was focused when it closes. */
  openConnect(): void
}

const ConnectDialogContext = createContext<ConnectDialogControl>({ openConnect() {} })

/** Hosts the one connect dialog of the app and lets any component open it. */
export function ConnectDialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const [loaded, setLoaded] = useState(false)
  const returnFocus = useRef<HTMLElement | null>(null)

  const openConnect = useCallback(() => {
    returnFocus.current = document.activeElement as HTMLElement | null
    setLoaded(true)
    setOpen(true)
  }, [])
  const close = useCallback(() => {
    setOpen(false)
    const target = returnFocus.current
    // The opener may have been replaced: a page's "Sign in" button gives way to the page itself
    // once signed in, so focus goes to its heading; a header button to the header.
    if (target?.closest('main') && !shown(target)) focusPageHeading()
    else if (target?.isConnected) target.focus()
    else document.querySelector<HTMLElement>('.auth-status button, .auth-status a')?.focus()
  }, [])
  const control = useMemo(() => ({ openConnect }), [openConnect])

  return (
    <ConnectDialogContext.Provider value={control}>
      {children}
      {loaded && (
        <Suspense fallback={null}>
          <ConnectDialog open={open} onClose={close} />
        </Suspense>
      )}
    </ConnectDialogContext.Provider>
  )
}

/**
 * In the page and shown: while a page's code loads, the content it replaces may stay in the
 * document, hidden (React keeps it under a Suspense boundary).
 */
function shown(element: HTMLElement): boolean {
  return element.isConnected && element.checkVisibility()
}

/**
 * Moves focus to the main heading, waiting (up to 3 s) for a page whose code is still loading to
 * render it; the heading is made focusable from script only.
 */
function focusPageHeading() {
  const main = document.querySelector('main')
  if (!main) return
  const focus = () => {
    const heading = [...main.querySelectorAll<HTMLElement>('h1')].find(shown)
    if (!heading) return false
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1
    heading.focus()
    return true
  }
  if (focus()) return
  main.focus({ preventScroll: true })
  const observer = new MutationObserver(() => focus() && observer.disconnect())
  observer.observe(main, { childList: true, subtree: true })
  setTimeout(() => observer.disconnect(), 3000)
}

export function useConnectDialog(): ConnectDialogControl {
  return useContext(ConnectDialogContext)
}
