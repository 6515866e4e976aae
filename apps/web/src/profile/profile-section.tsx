import { useId, useMemo } from 'react'
import { createBackendClient } from '@portico/sdk/backend'
import { useBackendClient } from '../backend/use-backend-client.ts'
import type { UploadFile } from './avatar-field.tsx'
import { createProgressFetch } from './progress-fetch.ts'
import { uploadAvatar } from './profile-store.ts'
import { ProfileForm } from './profile-form.tsx'

/** Uploads through the SDK's client over a progress-reporting `fetch` (one client per upload). */
export function createAvatarUpload(serverUrl: string, appId: string): UploadFile {
  return (file, onProgress) => {
    const client = createBackendClient({
      serverUrl,
      appId,
      fetch: createProgressFetch((sent, total) => onProgress(total > 0 ? sent / total : 0)),
    })
    return uploadAvatar(client, file)
  }
}

/** The profile card of the Account page, for the signed-in user `userId` (primary `address`). */
export function ProfileSection({ userId, address }: { userId: string; address: string }) {
  const heading = useId()
  const client = useBackendClient()
  const upload = useMemo(
    () => client && createAvatarUpload(client.serverUrl, client.appId),
    [client],
  )
  return (
    <section className="card" aria-labelledby={heading}>
      <h2 id={heading}>Profile</h2>
      {client && upload ? (
        <ProfileForm
          key={userId}
          client={client}
          ownerId={userId}
          address={address}
          upload={upload}
        />
      ) : (
        <p role="status" className="muted">
          Loading your profile…
        </p>
      )}
    </section>
  )
}
