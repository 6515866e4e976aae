import { describe, expect, it } from 'vitest'
import { cellText, columnsOf, editText, parseEdit, typeOfValue } from './field-types.ts'

/** A closed Polygon of three points, as the server keeps one. */
const SQUARE = {
  __type: 'Polygon',
  coordinates: [
    [0, 0],
    [0, 1],
    [1, 1],
    [0, 0],
  ],
}

describe('the data browser field types', () => {
  it('infers each wire type from a value', () => {
    const cases: [unknown, string | undefined][] = [
      ['text', 'string'],
      [3.5, 'number'],
      [false, 'boolean'],
      [{ __type: 'Date', iso: '2024-01-02T03:04:05.000Z' }, 'date'],
      [{ __type: 'Pointer', className: 'Team', objectId: 'abc' }, 'pointer'],
      [{ __type: 'Relation', className: 'Team' }, 'relation'],
      [{ __type: 'File', name: 'a.png', url: '/api/files/a.png' }, 'file'],
      [{ __type: 'GeoPoint', latitude: 1, longitude: 2 }, 'geopoint'],
      [SQUARE, 'polygon'],
      [{ __type: 'Bytes', base64: 'AAEC' }, 'bytes'],
      [[1, 2], 'array'],
      [{ a: 1 }, 'object'],
      [null, undefined],
    ]
    for (const [value, type] of cases) expect(typeOfValue(value), JSON.stringify(value)).toBe(type)
  })

  it('makes one column per field, declared ones included, around the built-in columns', () => {
    const columns = columnsOf(
      [
        { title: 'a', team: null },
        { team: { __type: 'Pointer', className: 'Team', objectId: 'x' } },
      ],
      {
        rating: { type: 'number' },
      },
    )
    expect(columns.map((c) => [c.key, c.type])).toEqual([
      ['objectId', 'string'],
      ['rating', 'number'],
      ['team', 'pointer'],
      ['title', 'string'],
      ['createdAt', 'date'],
      ['updatedAt', 'date'],
      ['ACL', 'acl'],
    ])
    expect(columns.find((c) => c.key === 'team')?.targetClass).toBe('Team')
  })

  it('checks what was typed before it is saved', () => {
    expect(parseEdit('number', 'x')).toEqual({ problem: '"x" is not a number.' })
    expect(parseEdit('number', ' 4.5 ')).toEqual({ value: 4.5 })
    expect(parseEdit('number', '')).toEqual({ value: undefined })
    expect(parseEdit('boolean', 'true')).toEqual({ value: true })
    expect(parseEdit('pointer', 'bad id!', { targetClass: 'Team' })).toHaveProperty('problem')
    expect(parseEdit('pointer', 'abc', { targetClass: 'Team' })).toEqual({
      value: { __type: 'Pointer', className: 'Team', objectId: 'abc' },
    })
    expect(parseEdit('geopoint', '91, 0')).toHaveProperty('problem')
    expect(parseEdit('geopoint', '48.85, ')).toEqual({
      problem: 'Give both latitude and longitude (e.g. 48.85, 2.35).',
    })
    expect(parseEdit('geopoint', 'north, 2')).toHaveProperty('problem')
    expect(parseEdit('polygon', '0, 0\n0, 1\n1, 1')).toEqual({
      value: {
        __type: 'Polygon',
        coordinates: [
          [0, 0],
          [0, 1],
          [1, 1],
        ],
      },
    })
    expect(parseEdit('polygon', '0, 0\n0, 1\n0, 1')).toEqual({
      problem: 'A polygon needs at least 3 different points, one per line.',
    })
    expect(parseEdit('polygon', '0, 0\n0, 1\n95, 1')).toEqual({
      problem: 'Point 3: Latitude is from -90 to 90 and longitude from -180 to 180.',
    })
    expect(parseEdit('bytes', 'AAEC')).toEqual({ value: { __type: 'Bytes', base64: 'AAEC' } })
    expect(parseEdit('bytes', 'AAE')).toHaveProperty('problem')
    expect(parseEdit('polygon', editText('polygon', SQUARE))).toEqual({ value: SQUARE })
    expect(cellText({ __type: 'Bytes', base64: 'AAECAw==' })).toBe('4 bytes: AAECAw==')
    expect(parseEdit('geopoint', '48.85, 2.35')).toEqual({
      value: { __type: 'GeoPoint', latitude: 48.85, longitude: 2.35 },
    })
    expect(parseEdit('array', '{"a":1}')).toEqual({ problem: 'Give a JSON array: [ … ].' })
    expect(parseEdit('object', '[1]')).toEqual({ problem: 'Give a JSON object: { … }.' })
    expect(parseEdit('object', '{"a":')).toHaveProperty('problem')
    expect(parseEdit('string', '')).toEqual({ value: '' })
  })

  it('edits a date in local time and saves it as the same instant', () => {
    const iso = '2024-05-06T07:08:09.000Z'
    const local = editText('date', { __type: 'Date', iso })
    expect(local).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/)
    expect(parseEdit('date', local)).toEqual({ value: { __type: 'Date', iso } })
  })
})
