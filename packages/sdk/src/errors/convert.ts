import { BaseError } from './base.ts'

/** A conversion got something other than a number, a string or a bigint. */
export class InvalidConversionInputError extends BaseError {
  override name = 'InvalidConversionInputError' as const
  constructor({ received }: { received: string }) {
    super('The input provided should be a number or a string', { details: `Received ${received}.` })
  }
}
export type InvalidConversionInputErrorType = InvalidConversionInputError & {
  name: 'InvalidConversionInputError'
}

/** The input has the right type but is not a non-negative whole number in the expected notation. */
export class InvalidNumberError extends BaseError {
  override name = 'InvalidNumberError' as const
  constructor({ value, reason }: { value: string; reason: string }) {
    super(`Cannot convert ${value}: ${reason}`)
  }
}
export type InvalidNumberErrorType = InvalidNumberError & { name: 'InvalidNumberError' }
