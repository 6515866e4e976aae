import { useBackendClient } from '../backend/use-backend-client.ts'
import { useServerData } from '../backend/use-server-data.ts'
import { fileUrl, loadProfile } from './profile-store.ts'

/** The key of the signed-in user's profile: saving the profile form reads it again. */
export const ownProfileKey = (userId: string) => ['profile', 'own', userId] as const

/**
 * The signed-in user's display name and avatar URL for the header and its menu; empty until read
 * (or when the user has saved none, or the read failed: the address stands in for them).
 */
export function useOwnProfile(userId: string): { displayName?: string; avatarUrl?: string } {
  const client = useBackendClient()
  const { state } = useServerData({
    key: ownProfileKey(userId),
    read: () => loadProfile(client!, userId),
    enabled: client !== undefined,
  })
  if (state.status !== 'ready' || !state.data || !client) return {}
  const { displayName, avatar } = state.data
  return {
    ...(displayName ? { displayName } : {}),
    ...(avatar ? { avatarUrl: fileUrl(client, avatar) } : {}),
  }
}
