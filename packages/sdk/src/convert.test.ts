import { describe, expect, it } from 'vitest'
import { fromDecimalToHex, fromHexToBigInt, fromHexToDecimal } from './convert.ts'
import { InvalidConversionInputError, InvalidNumberError } from './errors/convert.ts'

function errorOf(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('fromDecimalToHex', () => {
  it.each([
    [0, '0x0'],
    [255, '0xff'],
    ['255', '0xff'],
    [255n, '0xff'],
    [Number.MAX_SAFE_INTEGER, '0x1fffffffffffff'],
    ['9007199254740993', '0x20000000000001'],
    [
      '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      `0x${'f'.repeat(64)}`,
    ],
  ] as const)('%s → %s', (input, hex) => {
    expect(fromDecimalToHex(input)).toBe(hex)
  })

  it.each([
    [-1, 'negative'],
    ['-1', 'negative'],
    [1.5, 'whole number'],
    [Number.NaN, 'finite'],
    [Number.POSITIVE_INFINITY, 'finite'],
    ['', 'empty'],
    ['  ', 'empty'],
    ['1.5', 'decimal digits'],
    ['0xff', 'decimal digits'],
    ['12abc', 'decimal digits'],
    [2 ** 53, 'precision'],
    [-5n, 'negative'],
  ] as const)('rejects %s with a clear error', (input, reason) => {
    const error = errorOf(() => fromDecimalToHex(input))
    expect(error).toBeInstanceOf(InvalidNumberError)
    expect((error as InvalidNumberError).name).toBe('InvalidNumberError')
    expect((error as Error).message).toContain(reason)
  })
})

describe('fromHexToDecimal', () => {
  it.each([
    ['0x0', 0],
    ['0xff', 255],
    ['0xFF', 255],
    ['0x1fffffffffffff', Number.MAX_SAFE_INTEGER],
    [42, 42],
    [42n, 42],
  ] as const)('%s → %s', (input, n) => {
    expect(fromHexToDecimal(input)).toBe(n)
  })

  it('refuses to round values above 2^53 - 1 and fromHexToBigInt keeps them exact', () => {
    const error = errorOf(() => fromHexToDecimal('0x20000000000001'))
    expect(error).toBeInstanceOf(InvalidNumberError)
    expect((error as Error).message).toContain('fromHexToBigInt')
    expect(fromHexToBigInt('0x20000000000001')).toBe(9007199254740993n)
    expect(fromHexToBigInt(`0x${'f'.repeat(64)}`)).toBe(2n ** 256n - 1n)
  })

  it.each(['0xzz', '', '0x', 'ff', '255', '-0x1', '0x1.8', ' 0x1'])(
    'rejects %j with a clear error',
    (input) => {
      expect(errorOf(() => fromHexToDecimal(input))).toBeInstanceOf(InvalidNumberError)
    },
  )

  it.each([-1, 0.5, Number.NaN])('rejects the number %s', (input) => {
    expect(errorOf(() => fromHexToDecimal(input))).toBeInstanceOf(InvalidNumberError)
  })
})

describe('input type', () => {
  it.each([null, undefined, {}, [], true, Symbol('x'), () => 1])(
    'anything but number, string or bigint → the catalogue error (%s)',
    (input) => {
      for (const fn of [fromDecimalToHex, fromHexToDecimal, fromHexToBigInt]) {
        const error = errorOf(() => fn(input as never))
        expect(error).toBeInstanceOf(InvalidConversionInputError)
        expect((error as InvalidConversionInputError).shortMessage).toBe(
          'The input provided should be a number or a string',
        )
        expect((error as InvalidConversionInputError).name).toBe('InvalidConversionInputError')
      }
    },
  )
})
