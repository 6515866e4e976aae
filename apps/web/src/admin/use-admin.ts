import { placeholderLabel } from '@portico/sdk/wire'
import { shortMessageOf } from '../backend/error-message.ts'

// The state of a read, as the console's tables show it.
export type { Loaded } from '../backend/use-server-data.ts'

/** Runs a console change; resolves to an error message, or undefined when it worked. */
export async function change(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run()
    return undefined
  } catch (error) {
    return shortMessageOf(error)
  }
}

export const dateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—'

export const bytes = (n: number) =>
  n < 1024
    ? `${n} B`
    : n < 1024 ** 2
      ? `${(n / 1024).toFixed(1)} KB`
      : `${(n / 1024 ** 2).toFixed(1)} MB`

export const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`

/** An owner or actor as a person reads it: the server's own principals by what they are. */
export const ownerName = (address: string) => placeholderLabel(address) ?? shortAddress(address)
