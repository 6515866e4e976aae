import { useId, useMemo } from 'react'
import { createBackendClient } from '@portico/sdk/backend/client'
import { getBackendClient } from '../backend/backend.ts'
import type { UploadFile } from './AvatarField.tsx'
import { createProgressFetch } from './progress-fetch.ts'
import { uploadAvatar } from './profile-store.ts'
import { ProfileForm } from './ProfileForm.tsx'

/** Uploads through the SDK's client over a progress-reporting `fetch` (one client per upload). */
export function createAvatarUpload(serverUrl: string, appId: string): UploadFile {
  return (file, onProgress, signal) => {
    const client = createBackendClient({
      serverUrl,
      appId,
      fetch: createProgressFetch((sent, total) => onProgress(total > 0 ? sent / total : 0)),
    })
    return uploadAvatar(client, file, signal)
  }
}

/** The profile card of the Account page, for the signed-in user `userId`. */
export function ProfileSection({ userId }: { userId: string }) {
  const heading = useId()
  const client = getBackendClient()
  const upload = useMemo(() => createAvatarUpload(client.serverUrl, client.appId), [client])
  return (
    <section className="card" aria-labelledby={heading}>
      <h2 id={heading}>Profile</h2>
      <ProfileForm client={client} ownerId={userId} upload={upload} />
    </section>
  )
}
