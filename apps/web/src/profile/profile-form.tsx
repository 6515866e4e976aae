import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { Link } from 'wouter'
import type { BackendClient } from '@portico/sdk/backend'
import { shortMessageOf } from '../backend/error-message.ts'
import { AvatarField, type UploadFile } from './avatar-field.tsx'
import { usePorticoQueryClient } from '@portico/react'
import { ownProfileKey } from './use-own-profile.ts'
import { emptyProfile, fileUrl, loadProfile, saveProfile, type Profile } from './profile-store.ts'
import { localDateString, validateBirthday, validateDisplayName, BIRTHDAY_MIN } from './validate.ts'
import { useLeaveWarning } from './use-leave-warning.ts'
import './profile.css'

type Errors = { displayName?: string | null; birthday?: string | null }
type Loaded = { status: 'loading' } | { status: 'ready' } | { status: 'failed'; message: string }
type Saving =
  | { status: 'idle' }
  | { status: 'saving' }
  | { status: 'saved' }
  | { status: 'failed'; message: string }

/**
 * The signed-in user's profile: display name, avatar and birthday, stored as their
 * `Profile` object. Invalid input is refused next to its field; a failed save keeps everything
 * typed so the user can simply try again.
 */
export function ProfileForm({
  client,
  ownerId,
  address,
  upload,
  today = () => new Date(),
}: {
  client: BackendClient
  ownerId: string
  /** The user's (primary) address: their public page is `/u/<address>`. */
  address: string
  upload: UploadFile
  today?: () => Date
}) {
  const id = useId()
  const queryClient = usePorticoQueryClient()
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' })
  const [profile, setProfile] = useState<Profile>(emptyProfile)
  const [birthdayBadInput, setBirthdayBadInput] = useState(false)
  const [errors, setErrors] = useState<Errors>({})
  const [saving, setSaving] = useState<Saving>({ status: 'idle' })
  const [uploading, setUploading] = useState(false)
  const [attempt, setAttempt] = useState(0)
  const nameInput = useRef<HTMLInputElement>(null)
  const birthdayInput = useRef<HTMLInputElement>(null)

  useEffect(() => {
    let cancelled = false
    setLoaded({ status: 'loading' })
    loadProfile(client, ownerId).then(
      (stored) => {
        if (cancelled) return
        setProfile(stored ?? emptyProfile)
        setStored(stored ?? emptyProfile)
        setLoaded({ status: 'ready' })
      },
      (error: unknown) =>
        !cancelled && setLoaded({ status: 'failed', message: shortMessageOf(error) }),
    )
    return () => {
      cancelled = true
    }
  }, [client, ownerId, attempt])

  // What the server has: the form is "dirty" while it differs, and leaving then asks first.
  const [stored, setStored] = useState<Profile>(emptyProfile)
  const dirty =
    loaded.status === 'ready' &&
    (profile.displayName !== stored.displayName ||
      profile.birthday !== stored.birthday ||
      profile.public !== stored.public ||
      profile.avatar?.url !== stored.avatar?.url)
  useLeaveWarning(dirty, 'Your profile has unsaved changes. Leave this page and lose them?')

  const change = useCallback((fields: Partial<Profile>) => {
    setProfile((current) => ({ ...current, ...fields }))
    setSaving((current) => (current.status === 'saved' ? { status: 'idle' } : current))
  }, [])

  // Errors appear on submit, not on blur: a message appearing on blur would move the Save
  // button away from under the pointer between press and release. Once shown, a message is
  // checked again on every change, so it goes away as soon as the value is fixed.
  const recheck = (name: keyof Errors, message: string | null) =>
    setErrors((e) => (e[name] ? { ...e, [name]: message } : e))

  async function submit(event: FormEvent) {
    event.preventDefault()
    // Read from the field itself: a partly typed date leaves the value '' and fires no change
    // event, so only `validity.badInput` tells it apart from an empty field.
    const badInput = birthdayInput.current?.validity?.badInput ?? birthdayBadInput
    const next: Errors = {
      displayName: validateDisplayName(profile.displayName),
      birthday: validateBirthday(profile.birthday, today(), badInput),
    }
    setErrors(next)
    if (next.displayName) return nameInput.current?.focus()
    if (next.birthday) return birthdayInput.current?.focus()
    setSaving({ status: 'saving' })
    try {
      const saved = await saveProfile(client, profile)
      // Keep what the user typed since; take the id (and the server's form of the rest).
      setProfile((current) => ({ ...current, objectId: saved.objectId }))
      setStored(profile)
      setSaving({ status: 'saved' })
      // The header shows the name and picture too.
      void queryClient.invalidateQueries({ queryKey: ownProfileKey(ownerId) })
    } catch (error) {
      setSaving({ status: 'failed', message: shortMessageOf(error) })
    }
  }

  if (loaded.status === 'loading')
    return (
      <p role="status" className="muted">
        Loading your profile…
      </p>
    )
  if (loaded.status === 'failed')
    return (
      <div role="alert">
        <p>Your profile could not be loaded: {loaded.message}</p>
        <button type="button" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </div>
    )

  const field = (name: keyof Errors) => ({
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  })
  return (
    <form className="profile-form" noValidate onSubmit={submit} aria-label="Profile">
      <div className="field">
        <label htmlFor={`${id}-name`}>Display name</label>
        <input
          ref={nameInput}
          id={`${id}-name`}
          type="text"
          autoComplete="nickname"
          value={profile.displayName}
          onChange={(event) => {
            change({ displayName: event.target.value })
            recheck('displayName', validateDisplayName(event.target.value))
          }}
          {...field('displayName')}
        />
        {errors.displayName && (
          <p className="field-error" id={`${id}-displayName-error`}>
            {errors.displayName}
          </p>
        )}
      </div>
      <AvatarField
        value={profile.avatar}
        imageUrl={(file) => fileUrl(client, file)}
        upload={upload}
        onChange={(avatar) => change({ avatar })}
        onBusyChange={setUploading}
      />
      <div className="field field-check">
        <input
          id={`${id}-public`}
          type="checkbox"
          checked={profile.public}
          onChange={(event) => change({ public: event.target.checked })}
          aria-describedby={`${id}-public-hint`}
        />
        <label htmlFor={`${id}-public`}>Show my name and avatar on my public page</label>
        <p className="field-hint" id={`${id}-public-hint`}>
          Anyone can open <Link href={`/u/${address}`}>your public page</Link>. It always shows your
          address; your name and avatar only when this is ticked, and your birthday never.
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-birthday`}>Birthday</label>
        <input
          ref={birthdayInput}
          id={`${id}-birthday`}
          type="date"
          autoComplete="bday"
          min={BIRTHDAY_MIN}
          max={localDateString(today())}
          value={profile.birthday}
          onChange={(event) => {
            const badInput = event.target.validity?.badInput ?? false
            setBirthdayBadInput(badInput)
            change({ birthday: event.target.value })
            recheck('birthday', validateBirthday(event.target.value, today(), badInput))
          }}
          {...field('birthday')}
        />
        {errors.birthday && (
          <p className="field-error" id={`${id}-birthday-error`}>
            {errors.birthday}
          </p>
        )}
      </div>
      <div className="actions">
        <button type="submit" disabled={saving.status === 'saving' || uploading}>
          {saving.status === 'saving' ? 'Saving…' : 'Save profile'}
        </button>
        <p className="save-status" role="status">
          {saving.status === 'saved' && 'Profile saved.'}
          {uploading && 'Wait for the upload to finish.'}
        </p>
      </div>
      {saving.status === 'failed' && (
        <p className="field-error" role="alert">
          The profile was not saved: {saving.message}. Nothing you entered was lost; try again.
        </p>
      )}
    </form>
  )
}
