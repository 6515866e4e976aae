import type { ReactNode } from 'react'
import { useAuth } from '@portico/react'
import { PageLoading } from '../shell/page-loading.tsx'
import { useConnectDialog } from './connect-dialog-provider.tsx'

/**
 * Guards a page marked `auth: 'required'` in the page table: signed-in users see it, everyone
 * else is asked to sign in (the page's code does not even load for them).
 */
export function SignInRequired({ title, children }: { title: string; children: ReactNode }) {
  const auth = useAuth()
  const { openConnect } = useConnectDialog()
  if (auth.status === 'authenticated' || auth.status === 'logging_out') return children
  if (auth.status === 'undefined') return <PageLoading />
  return (
    <section className="sign-in-required" id="sign-in-required" data-reveal>
      <h1>{title}</h1>
      <p className="lead">Sign in with your wallet to see this page.</p>
      <p className="actions">
        <button type="button" onClick={openConnect}>
          Sign in
        </button>
      </p>
    </section>
  )
}
