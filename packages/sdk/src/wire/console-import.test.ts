import { describe, expect, expectTypeOf, it } from 'vitest'
import { consoleImportLineSchema } from './console-import.ts'
import type { ErrorCode } from './error-codes.ts'
import type {
  ConsoleImportLine,
  ConsoleImportProgress,
  ConsoleImportReport,
} from './console-types.ts'

describe("the import's answer lines", () => {
  it('are progress, the report, or an error, one key each', () => {
    expect(consoleImportLineSchema.oneOf.map((line) => line.required)).toEqual([
      ['progress'],
      ['report'],
      ['error'],
    ])
    expectTypeOf<ConsoleImportProgress>().toEqualTypeOf<{
      className: string
      done: number
      total: number
    }>()
    expectTypeOf<ConsoleImportReport['format']>().toEqualTypeOf<'dashboard' | 'legacy'>()
    expectTypeOf<ConsoleImportReport['refused'][number]['objectId']>().toEqualTypeOf<
      string | undefined
    >()
    expectTypeOf<Extract<ConsoleImportLine, { error: string }>['code']>().toEqualTypeOf<
      ErrorCode | undefined
    >()
  })
})
