import { describe, expect, it } from 'vitest'
import { InvalidDateError, InvalidWireValueError, UnsavedFileError } from '../errors/backend.ts'
import { decode, encode } from './encode.ts'
import { createFile, Pointer, PorticoFile } from './values.ts'

describe('encode', () => {
  it('turns Dates, saved files and pointers into their wire forms, deeply', () => {
    const file = new PorticoFile({ name: 'x_a.png', url: 'http://127.0.0.1/api/files/x_a.png' })
    expect(
      encode({
        when: new Date('2024-05-01T10:00:00Z'),
        list: [file, new Pointer('Note', 'abc'), 1, 'two', null, true],
        nested: { skip: undefined, keep: 0 },
      }),
    ).toEqual({
      when: { __type: 'Date', iso: '2024-05-01T10:00:00.000Z' },
      list: [
        { __type: 'File', name: 'x_a.png', url: 'http://127.0.0.1/api/files/x_a.png' },
        { __type: 'Pointer', className: 'Note', objectId: 'abc' },
        1,
        'two',
        null,
        true,
      ],
      nested: { keep: 0 },
    })
  })

  it('refuses an unsaved file with the catalogue error', () => {
    const error = (() => {
      try {
        encode({ deep: [createFile('a.txt', 'hello')] })
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(UnsavedFileError)
    expect(error).toMatchObject({
      name: 'UnsavedFileError',
      shortMessage: 'Tried to encode an unsaved file',
    })
  })

  it('refuses an invalid date with the catalogue error', () => {
    expect(() => encode({ when: new Date('not a date') })).toThrow(InvalidDateError)
    expect(() => encode(new Date(Number.NaN))).toThrow('Tried to encode an invalid date')
  })
})

describe('decode', () => {
  it('turns wire forms back into Date, PorticoFile and Pointer values', () => {
    const value = decode({
      when: { __type: 'Date', iso: '2024-05-01T10:00:00.000Z' },
      file: { __type: 'File', name: 'n', url: 'u' },
      ref: [{ __type: 'Pointer', className: 'Note', objectId: 'abc' }],
      plain: { a: [1, { b: 'c' }] },
    }) as Record<string, unknown>
    expect(value.when).toEqual(new Date('2024-05-01T10:00:00Z'))
    expect(value.file).toBeInstanceOf(PorticoFile)
    expect(value.file).toMatchObject({ name: 'n', url: 'u', saved: true })
    expect((value.ref as unknown[])[0]).toEqual(new Pointer('Note', 'abc'))
    expect(value.plain).toEqual({ a: [1, { b: 'c' }] })
  })

  it('round-trips through encode', () => {
    const original = { d: new Date(0), p: new Pointer('A', 'b'), n: [1, 'x', null] }
    expect(decode(encode(original))).toEqual(original)
  })

  it('passes GeoPoint, Polygon and Bytes wire forms through both ways exactly', () => {
    const values = {
      at: { __type: 'GeoPoint', latitude: -33.8688197, longitude: 151.2092955 },
      area: {
        __type: 'Polygon',
        coordinates: [
          [0, 0],
          [0, 1],
          [1, 1],
          [0, 0],
        ],
      },
      raw: { __type: 'Bytes', base64: 'AAECA/7/' },
      nested: { list: [[1, { at: { __type: 'GeoPoint', latitude: 1, longitude: 2 } }]] },
    }
    expect(encode(values)).toEqual(values)
    expect(decode(values)).toEqual(values)
  })

  it('refuses malformed wire values', () => {
    expect(() => decode({ __type: 'Date', iso: 'nope' })).toThrow(InvalidWireValueError)
    expect(() => decode({ __type: 'File', name: 'n' })).toThrow(InvalidWireValueError)
    expect(() => decode({ __type: 'Pointer', className: 1 })).toThrow(InvalidWireValueError)
  })
})
