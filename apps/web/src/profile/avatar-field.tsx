import { useEffect, useId, useRef, useState } from 'react'
import { shortMessageOf } from '../backend/error-message.ts'
import type { StoredFile } from './profile-store.ts'
import { AVATAR_MAX_BYTES, AVATAR_TYPES, validateAvatar } from './validate.ts'

/** Uploads one file, reporting progress in [0, 1]. */
export type UploadFile = (file: File, onProgress: (fraction: number) => void) => Promise<StoredFile>

type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; fraction: number; preview: string }
  | { status: 'failed'; message: string }

function errorMessage(error: unknown): string {
  return `The upload failed: ${shortMessageOf(error)}. Try again.`
}

/**
 * The avatar: a preview, a file picker checked before upload (type and size), and an upload
 * with a progress bar. The chosen image is uploaded at once; the profile points to it when saved.
 */
export function AvatarField({
  value,
  imageUrl,
  upload,
  onChange,
  onBusyChange,
}: {
  value: StoredFile | null
  /** Turns a stored file's URL into one the browser can load. */
  imageUrl: (file: StoredFile) => string
  upload: UploadFile
  onChange: (file: StoredFile | null) => void
  onBusyChange: (busy: boolean) => void
}) {
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [state, setState] = useState<UploadState>({ status: 'idle' })
  const [refused, setRefused] = useState<string | null>(null)
  const controller = useRef<AbortController | null>(null)

  // After leaving the page (or choosing another file) a late answer is ignored.
  useEffect(() => () => controller.current?.abort(), [])

  async function choose(file: File) {
    const problem = validateAvatar(file)
    setRefused(problem)
    if (problem) {
      if (input.current) input.current.value = ''
      return
    }
    controller.current?.abort()
    const current = new AbortController()
    controller.current = current
    const preview = URL.createObjectURL(file)
    setState({ status: 'uploading', fraction: 0, preview })
    onBusyChange(true)
    try {
      const stored = await upload(file, (fraction) =>
        setState((s) => (s.status === 'uploading' ? { ...s, fraction } : s)),
      )
      if (current.signal.aborted) return
      onChange(stored)
      setState({ status: 'idle' })
    } catch (error) {
      if (current.signal.aborted) return
      setState({ status: 'failed', message: errorMessage(error) })
    } finally {
      URL.revokeObjectURL(preview)
      if (!current.signal.aborted) onBusyChange(false)
      if (input.current) input.current.value = ''
    }
  }

  const message = refused ?? (state.status === 'failed' ? state.message : null)
  const src = state.status === 'uploading' ? state.preview : value ? imageUrl(value) : null
  return (
    <div className="field avatar-field">
      <span className="field-label" id={`${id}-label`}>
        Avatar
      </span>
      <div className="avatar-row">
        {src ? (
          <img className="avatar" src={src} alt="Your avatar" width={96} height={96} />
        ) : (
          <span className="avatar avatar-empty" aria-hidden="true" />
        )}
        <div className="avatar-actions">
          <input
            ref={input}
            id={id}
            className="visually-hidden"
            type="file"
            accept={AVATAR_TYPES.join(',')}
            aria-describedby={`${id}-hint${message ? ` ${id}-error` : ''}`}
            aria-invalid={message ? true : undefined}
            onChange={(event) => {
              const file = event.target.files?.[0]
              if (file) void choose(file)
            }}
          />
          {/* After the input, so CSS can show the input's keyboard focus on this label. */}
          <label htmlFor={id} className="button button-secondary">
            {value ? 'Change image…' : 'Choose an image…'}
          </label>
          {value && state.status !== 'uploading' && (
            <button type="button" className="button-secondary" onClick={() => onChange(null)}>
              Remove
            </button>
          )}
        </div>
      </div>
      <p className="field-hint" id={`${id}-hint`}>
        PNG, JPEG, GIF, WebP or AVIF, at most {AVATAR_MAX_BYTES / (1024 * 1024)} MB.
      </p>
      {state.status === 'uploading' && (
        <div className="upload-progress">
          <label htmlFor={`${id}-progress`}>Uploading… {Math.round(state.fraction * 100)} %</label>
          <progress id={`${id}-progress`} max={100} value={Math.round(state.fraction * 100)} />
        </div>
      )}
      {message && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {message}
        </p>
      )}
    </div>
  )
}
