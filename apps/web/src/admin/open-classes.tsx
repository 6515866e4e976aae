import { useState } from 'react'
import type { BackendClient } from '@portico/sdk/backend'
import { InlineProblem } from './inline-problem.tsx'
import { change } from './use-admin.ts'
import { consoleCall, useConsole } from './console-api.ts'

/** A class anyone signed out may write, as `GET /api/admin/open-classes` lists it. */
export interface OpenClass {
  className: string
  create: boolean
  write: boolean
}

/** The classes anyone signed out may write, loaded once per page and again after a close. */
export function useOpenClasses(client: BackendClient) {
  return useConsole(client, 'GET /api/admin/open-classes')
}

/** What a class lets clients that are not signed in do, in words. */
export function openClassText(open: OpenClass): string {
  if (open.create && open.write) return 'Anyone signed out may create and change objects'
  if (open.create) return 'Anyone signed out may create objects'
  return 'Anyone signed out may change some objects'
}

/**
 * The badge of a class open to signed-out writes, with the one step that closes it to signed-in
 * users (an admin's): the class's permissions then ask a sign-in for every write, reads stay.
 */
export function OpenClassBadge({
  client,
  open,
  readOnly,
  onClosed,
}: {
  client: BackendClient
  open: OpenClass
  readOnly: boolean
  onClosed: () => void
}) {
  const [problem, setProblem] = useState<string>()
  const [busy, setBusy] = useState(false)
  const close = async () => {
    setBusy(true)
    const failed = await change(() =>
      consoleCall(client, 'POST /api/admin/classes/:className/close', {
        params: { className: open.className },
      }),
    )
    setBusy(false)
    setProblem(failed)
    if (!failed) onClosed()
  }
  return (
    <span className="open-class" role="group" aria-label={`${open.className} is open`}>
      <span className="badge badge-open">{openClassText(open)}</span>
      {readOnly ? null : (
        <button type="button" className="button-secondary" disabled={busy} onClick={close}>
          Close to signed-in users
        </button>
      )}
      <InlineProblem text={problem} />
    </span>
  )
}
