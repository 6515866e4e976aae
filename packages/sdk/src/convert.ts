import { InvalidConversionInputError, InvalidNumberError } from './errors/convert.ts'

// Hex/decimal conversion accepts only number or string; bigint too, because
// chain quantities outgrow JavaScript numbers. Precision is never lost silently.

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return `a value of type ${typeof value}`
}

function invalid(value: unknown, reason: string): InvalidNumberError {
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value)
  return new InvalidNumberError({ value: shown, reason })
}

/** A number input must be a safe, non-negative whole number, or its exact value is unknown. */
function fromNumber(value: number): bigint {
  if (Number.isNaN(value) || !Number.isFinite(value))
    throw invalid(value, 'it is not a finite number')
  if (value < 0) throw invalid(value, 'negative numbers are not supported')
  if (!Number.isInteger(value)) throw invalid(value, 'it is not a whole number')
  if (!Number.isSafeInteger(value)) {
    throw invalid(
      value,
      'it is above 2^53 - 1 and may already have lost precision; pass a string or a bigint',
    )
  }
  return BigInt(value)
}

function fromBigInt(value: bigint): bigint {
  if (value < 0n) throw invalid(value, 'negative numbers are not supported')
  return value
}

function checkType(value: unknown): asserts value is number | string | bigint {
  if (typeof value !== 'number' && typeof value !== 'string' && typeof value !== 'bigint') {
    throw new InvalidConversionInputError({ received: describe(value) })
  }
}

/**
 * Decimal → `0x` hex quantity (lower case, no leading zeros).
 *
 * @example
 * fromDecimalToHex(255) // '0xff'
 * fromDecimalToHex('18446744073709551615') // '0xffffffffffffffff'
 */
export function fromDecimalToHex(value: number | string | bigint): `0x${string}` {
  checkType(value)
  let n: bigint
  if (typeof value === 'number') n = fromNumber(value)
  else if (typeof value === 'bigint') n = fromBigInt(value)
  else {
    if (value.trim() === '') throw invalid(value, 'the string is empty')
    if (value.startsWith('-')) throw invalid(value, 'negative numbers are not supported')
    if (!/^[0-9]+$/.test(value)) throw invalid(value, 'expected decimal digits only')
    n = BigInt(value)
  }
  return `0x${n.toString(16)}`
}

function parseHex(value: string): bigint {
  if (value.trim() === '') throw invalid(value, 'the string is empty')
  if (value.startsWith('-')) throw invalid(value, 'negative numbers are not supported')
  if (!/^0x[0-9a-fA-F]+$/.test(value)) throw invalid(value, 'expected a hex string like "0x1a"')
  return BigInt(value)
}

/**
 * `0x` hex quantity → number. Throws rather than rounding when the value is above 2^53 − 1;
 * use `fromHexToBigInt` for such values.
 *
 * @example
 * fromHexToDecimal('0xff') // 255
 */
export function fromHexToDecimal(value: number | string | bigint): number {
  const n = fromHexToBigInt(value)
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw invalid(
      value,
      'it is above 2^53 - 1 and cannot be a number without losing precision; use fromHexToBigInt',
    )
  }
  return Number(n)
}

/**
 * `0x` hex quantity → bigint, exact for any size.
 *
 * @example
 * fromHexToBigInt('0xffffffffffffffff') // 18446744073709551615n
 */
export function fromHexToBigInt(value: number | string | bigint): bigint {
  checkType(value)
  if (typeof value === 'number') return fromNumber(value)
  if (typeof value === 'bigint') return fromBigInt(value)
  return parseHex(value)
}
