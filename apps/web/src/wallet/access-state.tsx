import { useId, useState } from 'react'
import { useConnectDialog } from './connect-dialog-provider.tsx'

// The two states a page for signed-in users or for the site's team can be in besides its
// content, drawn the same way on every page (Account, Analytics, Console): a card under the
// page's own heading, with one primary action. "Not allowed" is in shell/not-allowed.tsx: only the
// team's pages use it, so it stays out of the first load.

let pendingNote: string | undefined

/**
 * What the next sign-in prompt says first: why the user was signed out by something they did on
 * the page (revoking this browser's session, signing out everywhere).
 */
export function noteForSignInPrompt(note: string): void {
  pendingNote = note
}

/** A visitor who is not signed in: what signing in gives them, and the button to do it. */
export function SignInFirst({ what }: { what: string }) {
  const { openConnect } = useConnectDialog()
  const id = useId()
  // Read once, when the prompt appears.
  const [note] = useState(() => {
    const text = pendingNote
    pendingNote = undefined
    return text
  })
  return (
    <section className="card access-state" aria-labelledby={id} data-access="sign-in">
      {note && (
        <p className="access-note" role="status">
          {note}
        </p>
      )}
      <h2 id={id}>Sign in first</h2>
      <p>Sign in with your wallet to see {what}. It takes one signature: no password, no fee.</p>
      <p className="actions">
        <button type="button" onClick={openConnect}>
          Sign in
        </button>
      </p>
    </section>
  )
}
