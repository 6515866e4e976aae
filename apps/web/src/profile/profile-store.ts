import {
  type BackendClient,
  saveFile,
  queryObjects,
  saveObject,
  type SavedObject,
  createFile,
  PorticoFile,
} from '@portico/sdk/backend'

// The profile as an object of class `Profile`, one per user, through the SDK: found
// by a query on its owner, created on the first save, changed in place afterwards. Private (the
// default), so only its owner reads it. With `public` set, the server shows its display name and
// avatar (never the rest) on the user's public page (`GET /api/profiles/:address`).

export const PROFILE_CLASS = 'Profile'

/** A file the server stored. */
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
  /** The display name and avatar are shown on the user's public page. */
  public: boolean
}

export const emptyProfile: Profile = { displayName: '', avatar: null, birthday: '', public: false }

/** The fields as stored; `encode` turns the file and the date into their wire forms. */
interface ProfileData extends Record<string, unknown> {
  displayName: string
  avatar: PorticoFile | null
  birthday: Date | null
  public: boolean
}

/** Form values → object fields. A birthday is a calendar day, kept as midnight UTC. */
export function toData(profile: Profile): ProfileData {
  return {
    displayName: profile.displayName.trim(),
    avatar: profile.avatar ? new PorticoFile(profile.avatar) : null,
    birthday: profile.birthday ? new Date(`${profile.birthday}T00:00:00.000Z`) : null,
    public: profile.public,
  }
}

/** Stored object → form values, tolerating missing or unexpected fields. */
export function fromObject(object: SavedObject): Profile {
  const { displayName, avatar, birthday } = object.data
  return {
    objectId: object.objectId,
    displayName: typeof displayName === 'string' ? displayName : '',
    avatar:
      avatar instanceof PorticoFile && avatar.url ? { name: avatar.name, url: avatar.url } : null,
    birthday:
      birthday instanceof Date && !Number.isNaN(birthday.getTime())
        ? birthday.toISOString().slice(0, 10)
        : '',
    public: object.data.public === true,
  }
}

/** The user's profile, or null before their first save. */
export async function loadProfile(client: BackendClient, ownerId: string): Promise<Profile | null> {
  const { results } = await queryObjects(client, {
    className: PROFILE_CLASS,
    where: { owner: ownerId },
    order: '-updatedAt',
    limit: 1,
  })
  return results[0] ? fromObject(results[0]) : null
}

/** Creates or updates the profile; resolves to it as stored. */
export async function saveProfile(client: BackendClient, profile: Profile): Promise<Profile> {
  const saved = await saveObject<ProfileData>(client, {
    className: PROFILE_CLASS,
    objectId: profile.objectId,
    data: toData(profile),
  })
  return fromObject(saved)
}

const extensions: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
}

/**
 * Uploads an avatar image with the SDK's `saveFile` under a safe name (the user's file name is
 * not sent); the client's `fetch` may report progress (createProgressFetch).
 */
export async function uploadAvatar(client: BackendClient, file: Blob): Promise<StoredFile> {
  const name = `avatar.${extensions[file.type] ?? 'img'}`
  const saved = await saveFile(client, createFile(name, file, file.type))
  return { name: saved.name, url: saved.url! }
}

/** A stored file's URL as the browser loads it (the SDK stores absolute URLs). */
export function fileUrl(client: Pick<BackendClient, 'url'>, file: StoredFile): string {
  return /^https?:\/\//.test(file.url) ? file.url : client.url(file.url)
}

/** What anyone sees of the user of a wallet: the address, and the rest only when made public. */
export interface PublicProfile {
  address: string
  displayName?: string
  /** A path on this server (`/api/files/…`). */
  avatarUrl?: string
}

/** The public profile of `address` (the address alone when its user shows nothing). */
export function loadPublicProfile(
  client: BackendClient,
  address: string,
  signal?: AbortSignal,
): Promise<PublicProfile> {
  return client.request<PublicProfile>('GET', `/api/profiles/${encodeURIComponent(address)}`, {
    signal,
  })
}
