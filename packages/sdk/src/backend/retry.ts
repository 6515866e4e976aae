// Retry helpers of the backend client.

/**
 * Wait before attempt `attempt + 1`: exponential (base × 2^(attempt-1), capped), with "equal
 * jitter" — half of the step is fixed and half random — so retries from many clients spread
 * out but never collapse to zero.
 */
export function backoffDelay(
  attempt: number,
  random: () => number,
  base = 250,
  max = 4_000,
): number {
  const step = Math.min(max, base * 2 ** (attempt - 1))
  return Math.round(step / 2 + (step / 2) * random())
}

/** A fresh random idempotency key (UUID v4); works outside secure contexts too. */
export function newIdempotencyKey(): string {
  const crypto = globalThis.crypto
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
