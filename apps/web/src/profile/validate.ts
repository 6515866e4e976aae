// Client-side checks of the profile form. Each returns the message shown next to the
// field, or null when the value is fine. The server checks again; these give a clear message
// before anything is sent.

/** Longest display name, in characters. */
export const DISPLAY_NAME_MAX = 50

/** Largest avatar the form uploads (the server's own file limit is higher). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024

/** Image types a browser shows inline and the server serves as images. */
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']

/** Earliest accepted birthday. */
export const BIRTHDAY_MIN = '1900-01-01'

export function validateDisplayName(value: string): string | null {
  const name = value.trim()
  if ([...name].length > DISPLAY_NAME_MAX)
    return `Use at most ${DISPLAY_NAME_MAX} characters (this one has ${[...name].length}).`
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'The name cannot contain control characters.'
  return null
}

/** `YYYY-MM-DD` of a date in the reader's own calendar (what `<input type="date">` uses). */
export function localDateString(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/**
 * A birthday is optional; when given it must be a real calendar date, not after today and not
 * before 1900. `value` is the `YYYY-MM-DD` an `<input type="date">` gives (empty when the
 * browser could not read what was typed, see `badInput`).
 */
export function validateBirthday(value: string, today: Date, badInput = false): string | null {
  if (badInput) return 'Enter a complete, real date (for example 1990-05-17).'
  if (value === '') return null
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return 'Enter the date as year-month-day, for example 1990-05-17.'
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return 'That date does not exist.'
  if (value > localDateString(today)) return 'A birthday cannot be in the future.'
  if (value < BIRTHDAY_MIN) return 'Enter a date after 1 January 1900.'
  return null
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  // Rounded up, so a file just over the limit never reads as equal to it.
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`
  return `${(Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1)} MB`
}

export function validateAvatar(file: { size: number; type: string }): string | null {
  if (!AVATAR_TYPES.includes(file.type)) return 'Choose a PNG, JPEG, GIF, WebP or AVIF image.'
  if (file.size === 0) return 'That file is empty.'
  if (file.size > AVATAR_MAX_BYTES)
    return `The image is ${formatBytes(file.size)}; the limit is ${formatBytes(AVATAR_MAX_BYTES)}.`
  return null
}
