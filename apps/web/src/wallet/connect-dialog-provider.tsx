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
  // The dialog gives focus back (restoreFocus, loaded with it).
  const close = useCallback(() => setOpen(false), [])
  const control = useMemo(() => ({ openConnect }), [openConnect])

  return (
    <ConnectDialogContext.Provider value={control}>
      {children}
      {loaded && (
        <Suspense fallback={null}>
          <ConnectDialog open={open} onClose={close} opener={returnFocus} />
        </Suspense>
      )}
    </ConnectDialogContext.Provider>
  )
}

export function useConnectDialog(): ConnectDialogControl {
  return useContext(ConnectDialogContext)
}
