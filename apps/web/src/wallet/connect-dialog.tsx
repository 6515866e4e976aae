import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react'
import { chainName } from '@portico/sdk/wallet'
import { useAuth, useWallet } from '@portico/react'
import { createSafeStorage } from '../storage/safe-storage.ts'
import { errorAdvice } from './error-advice.ts'
import { restoreFocus } from './restore-focus.ts'
import { isTouchDevice, pageForWalletApp } from './wallet-apps.ts'
import { WalletOptions } from './wallet-options.tsx'
import { WalletQr } from './wallet-qr.tsx'

/** The connector or wallet app chosen last in this browser, listed first next time. */
const RECENT_KEY = 'portico.recentWallet'
const storage = createSafeStorage(() => window.localStorage)

/**
 * The connect dialog: a native modal <dialog>, so the page behind is inert (focus stays
 * inside), Escape closes it, and it is labelled by its heading; the provider returns focus to the
 * opener. Lists the ways to connect, then shows the sign-in's progress or its error.
 */
export default function ConnectDialog({
  open,
  onClose: hide,
  opener,
}: {
  open: boolean
  onClose(): void
  /** The element focused when the dialog opened: focus returns there (restoreFocus). */
  opener: RefObject<HTMLElement | null>
}) {
  const onClose = useCallback(() => {
    hide()
    restoreFocus(opener.current)
  }, [hide, opener])
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const auth = useAuth()
  const wallet = useWallet()
  const { load } = wallet
  const [recent, setRecent] = useState(() => storage.getItem(RECENT_KEY) ?? undefined)
  const remember = (id: string) => {
    storage.setItem(RECENT_KEY, id)
    setRecent(id)
  }
  const touch = isTouchDevice()

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])

  // Opening the dialog loads the wallet code and looks for browser wallets (up to 3000 ms, once
  // per page load); what is already known shows meanwhile.
  useEffect(() => {
    if (open) void load()
  }, [open, load])

  // Signed in: nothing left to do here.
  useEffect(() => {
    if (open && auth.status === 'authenticated') onClose()
  }, [open, auth.status, onClose])

  // Closing after a failed sign-in leaves the header clean, not on "Sign-in failed".
  const close = () => {
    if (auth.status === 'error') auth.dismiss()
    onClose()
  }

  let body
  if (auth.status === 'authenticating') {
    body = <Progress step={auth.signInStep} pairingUri={wallet.pairingUri} touch={touch} />
  } else if (auth.status === 'error') {
    const { message, advice } = errorAdvice(auth.error)
    const wrongChain = auth.error as { name?: string; allowed?: readonly number[] }
    const switchable =
      wrongChain.name === 'ChainNotAllowedError' && wrongChain.allowed?.length
        ? wrongChain.allowed
        : undefined
    body = (
      <div className="dialog-error" role="alert">
        <p className="error-message">{message}</p>
        <p>{advice}</p>
        {switchable ? (
          // Switching signs in again by itself: its button is the one primary action.
          <SwitchNetwork allowed={switchable} />
        ) : (
          <p className="actions">
            <button type="button" onClick={() => void auth.retry()}>
              Try again
            </button>
            <button type="button" className="button-secondary" onClick={auth.dismiss}>
              Choose another way
            </button>
          </p>
        )}
      </div>
    )
  } else {
    body = (
      <WalletOptions
        wallet={wallet}
        disabled={auth.status !== 'unauthenticated'}
        onChoose={(connectorId, email) => {
          remember(connectorId)
          void auth.signIn({ connectorId, email })
        }}
        showUnconfigured={import.meta.env.DEV}
        touch={touch}
        recent={recent}
        pageUrl={pageForWalletApp(window.location)}
        onOpenApp={remember}
        injected={Boolean((window as { ethereum?: unknown }).ethereum)}
      />
    )
  }

  return (
    <dialog
      ref={ref}
      className="connect-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault()
        close()
      }}
      onClose={() => open && close()}
      onKeyDown={keepFocusInside}
    >
      <div className="dialog-header">
        <h2 id={titleId}>Connect a wallet</h2>
        <button type="button" className="button-secondary close-button" onClick={close}>
          Close
        </button>
      </div>
      {body}
    </dialog>
  )
}

/**
 * A modal <dialog> makes the page inert, but Tab from its last control still leaves for the
 * browser's own UI; wrap around instead so keyboard users stay in the dialog until they close it.
 */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== 'Tab') return
  const focusable = [
    ...event.currentTarget.querySelectorAll<HTMLElement>(
      'button:not([disabled]), input:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])',
    ),
  ]
  const first = focusable[0]
  const last = focusable[focusable.length - 1]
  if (!first || !last) return
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault()
    first.focus()
  }
}

function Progress({
  step,
  pairingUri,
  touch,
}: {
  step: string | null
  pairingUri: string | undefined
  touch: boolean
}) {
  if (step === 'connecting' && pairingUri) return <WalletQr uri={pairingUri} touch={touch} />
  const text =
    step === 'signing'
      ? 'Check your wallet: approve the sign-in message to continue.'
      : step === 'verifying'
        ? 'Checking your signature…'
        : 'Connecting… check your wallet if it asks you to approve.'
  return (
    <p className="dialog-progress" role="status">
      <span className="spinner" aria-hidden="true" />
      {text}
    </p>
  )
}

/**
 * The wallet is on a network the site does not accept: one primary button switches to the site's
 * first network (adding it to the wallet when the wallet lacks it) and signs in again; other
 * accepted networks are secondary. The chain is checked before any signature is asked for. When
 * the wallet does not switch, the dialog says what to do by hand.
 */
function SwitchNetwork({ allowed }: { allowed: readonly number[] }) {
  const auth = useAuth()
  const wallet = useWallet()
  const [failed, setFailed] = useState<number>()
  const [busy, setBusy] = useState(false)
  const switchTo = async (chainId: number) => {
    setBusy(true)
    setFailed(undefined)
    try {
      await wallet.switchChain(chainId)
      await auth.retry()
    } catch (error) {
      // Shown below as what to do next; the wallet's own words add nothing a visitor can act on.
      console.warn('The wallet did not switch networks', error)
      setFailed(chainId)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="switch-network">
      {failed !== undefined && (
        <p className="field-error">
          Your wallet did not switch. Open your wallet, choose {chainName(failed)} as its network,
          then press Try again.
        </p>
      )}
      <p className="actions">
        {failed !== undefined ? (
          <button type="button" disabled={busy} onClick={() => void auth.retry()}>
            Try again
          </button>
        ) : null}
        {allowed.map((chainId, index) => (
          <button
            key={chainId}
            type="button"
            className={index === 0 && failed === undefined ? undefined : 'button-secondary'}
            disabled={busy}
            onClick={() => void switchTo(chainId)}
          >
            Switch to {chainName(chainId)}
          </button>
        ))}
        <button type="button" className="button-secondary" disabled={busy} onClick={auth.dismiss}>
          Choose another way
        </button>
      </p>
    </div>
  )
}
