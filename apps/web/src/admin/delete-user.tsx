import { useState } from 'react'
import type { BackendClient } from '@portico/sdk/backend'
import { InlineProblem } from './inline-problem.tsx'
import { change } from './use-admin.ts'
import { consoleCall } from './console-api.ts'

/**
 * Deletes a user after a confirmation (a data-protection request): their sessions, wallets,
 * password and account go; what they own is kept or deleted as the server's
 * USER_DELETE_OBJECTS says. Recorded in the audit log.
 */
export function DeleteUser({
  client,
  userId,
  label,
  onDeleted,
}: {
  client: BackendClient
  userId: string
  label: string
  onDeleted: () => void
}) {
  const [confirming, setConfirming] = useState(false)
  const [problem, setProblem] = useState<string>()
  const remove = async () => {
    setConfirming(false)
    const failed = await change(() =>
      consoleCall(client, 'DELETE /api/admin/users/:userId', { params: { userId } }),
    )
    setProblem(failed)
    if (!failed) onDeleted()
  }
  return (
    <>
      {confirming ? (
        <span role="group" aria-label="Confirm deleting the user" className="confirm">
          <strong>Delete {label} for good?</strong>
          <button type="button" className="danger" onClick={remove}>
            Yes, delete the user
          </button>
          <button type="button" className="button-secondary" onClick={() => setConfirming(false)}>
            Keep them
          </button>
        </span>
      ) : (
        <button type="button" className="button-secondary" onClick={() => setConfirming(true)}>
          Delete user…
        </button>
      )}
      <InlineProblem text={problem} />
    </>
  )
}
