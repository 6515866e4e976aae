import type { BackendClient } from '@portico/sdk/backend/client'

// The profile as an object of class `Profile` (issue 7), one per user: found by a query on its
// owner, created on the first save, changed in place afterwards. Private (the default), so only
// its owner reads it.

export const PROFILE_CLASS = 'Profile'

/** A file the server stored (`POST /api/files/:name`). */
export interface StoredFile {
  name: string
  url: string
}

export interface Profile {
  objectId?: string | undefined
  displayName: string
  avatar: StoredFile | null
  /** `YYYY-MM-DD`, or '' when not given. */
  birthday: string
}

export const emptyProfile: Profile = { displayName: '', avatar: null, birthday: '' }

interface WireProfile {
  objectId: string
  data: Record<string, unknown>
}

/** The stored document: design.md §4 wire forms for the file and the date. */
export function toDocument(profile: Profile): Record<string, unknown> {
  return {
    displayName: profile.displayName.trim(),
    avatar: profile.avatar ? { __type: 'File', ...profile.avatar } : null,
    // A birthday is a calendar day, kept as midnight UTC so it reads back as the same day.
    birthday: profile.birthday
      ? { __type: 'Date', iso: `${profile.birthday}T00:00:00.000Z` }
      : null,
  }
}

/** Reads a stored document back, tolerating missing or malformed fields. */
export function fromWire(object: WireProfile): Profile {
  const { displayName, avatar, birthday } = object.data as Record<
    string,
    Record<string, unknown> | string | null | undefined
  >
  const file =
    avatar &&
    typeof avatar === 'object' &&
    typeof avatar.name === 'string' &&
    typeof avatar.url === 'string'
      ? { name: avatar.name, url: avatar.url }
      : null
  const iso =
    birthday && typeof birthday === 'object' && typeof birthday.iso === 'string' ? birthday.iso : ''
  return {
    objectId: object.objectId,
    displayName: typeof displayName === 'string' ? displayName : '',
    avatar: file,
    birthday: iso.slice(0, 10),
  }
}

type Client = Pick<BackendClient, 'request'>

/** The user's profile, or null before their first save. */
export async function loadProfile(client: Client, ownerId: string): Promise<Profile | null> {
  const { results } = await client.request<{ results: WireProfile[] }>(
    'GET',
    `/api/classes/${PROFILE_CLASS}`,
    {
      query: { where: JSON.stringify({ owner: ownerId }), order: '-updatedAt', limit: 1 },
    },
  )
  return results[0] ? fromWire(results[0]) : null
}

/** Creates or updates the profile; resolves to it as stored. */
export async function saveProfile(client: Client, profile: Profile): Promise<Profile> {
  const body = { data: toDocument(profile) }
  const saved = profile.objectId
    ? await client.request<WireProfile>(
        'PUT',
        `/api/classes/${PROFILE_CLASS}/${encodeURIComponent(profile.objectId)}`,
        { body },
      )
    : await client.request<WireProfile>('POST', `/api/classes/${PROFILE_CLASS}`, { body })
  return fromWire(saved)
}

const extensions: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
}

/** Uploads an avatar image; the client's `fetch` may report progress (createProgressFetch). */
export async function uploadAvatar(
  client: Client,
  file: Blob,
  signal?: AbortSignal,
): Promise<StoredFile> {
  const name = `avatar.${extensions[file.type] ?? 'img'}`
  return client.request<StoredFile>('POST', `/api/files/${name}`, {
    body: file,
    contentType: file.type,
    signal,
  })
}
