import { useId } from 'react'
import { Link } from 'wouter'

// The "not allowed" state of the team's pages, drawn as "sign in first" is (access-state.tsx).

/** A signed-in user without the role the page needs: why, and who can change it. */
export function NotAllowed({ what }: { what: string }) {
  const id = useId()
  return (
    <section className="card access-state" aria-labelledby={id} data-access="not-allowed">
      <h2 id={id}>Not allowed</h2>
      <p>
        You are signed in, but {what} is only for this site&apos;s team, and your address is not on
        it.
      </p>
      <p className="muted">
        An operator can add an address to the server&apos;s <code>ADMIN_ADDRESSES</code> (or{' '}
        <code>VIEWER_ADDRESSES</code>, to look only).
      </p>
      <p>
        <Link href="/">Back to the home page</Link>
      </p>
    </section>
  )
}
