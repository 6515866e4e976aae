/**
 * The text to show for a failed call: an SDK error's `shortMessage` (docs/errors.md: UI shows
 * `shortMessage`), else a plain error's message.
 */
export function shortMessageOf(error: unknown): string {
  const failure = error as { shortMessage?: unknown; message?: unknown } | null | undefined
  if (typeof failure?.shortMessage === 'string') return failure.shortMessage
  if (typeof failure?.message === 'string') return failure.message
  return 'Unknown error'
}
