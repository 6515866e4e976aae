import type { ReactNode } from 'react'
import { useAuth } from '@portico/react'
import { SignInFirst } from './access-state.tsx'
import { PageLoading } from '../ui/page-loading.tsx'

/**
 * Guards a page marked `auth: 'required'` in the page table: signed-in users see it, everyone
 * else is asked to sign in (the page's code does not even load for them).
 */
export function SignInRequired({ title, children }: { title: string; children: ReactNode }) {
  const auth = useAuth()
  if (auth.status === 'authenticated' || auth.status === 'logging_out') return children
  if (auth.status === 'undefined') return <PageLoading />
  return (
    <section className="sign-in-required" id="sign-in-required" data-reveal>
      <h1>{title}</h1>
      <SignInFirst what="this page" />
    </section>
  )
}
