import { describe, expect, it } from 'vitest'
import { HttpError } from '../errors.ts'
import { normaliseDocument, normaliseValue } from './wire.ts'

// The stored wire forms of typed values: what is accepted, its canonical form, and the refusals.

function refusal(run: () => unknown) {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError)
    const { statusCode, code, message } = error as HttpError
    return { statusCode, code, message }
  }
  throw new Error('not refused')
}

const invalidValue = (message: string) => ({ statusCode: 400, code: 'invalid_value', message })

describe('normaliseValue', () => {
  it('keeps a GeoPoint exactly, at the limits too, and drops anything else it carries', () => {
    expect(
      normaliseValue({ __type: 'GeoPoint', latitude: 44.1234567891, longitude: -11.5 }, 'at'),
    ).toEqual({ __type: 'GeoPoint', latitude: 44.1234567891, longitude: -11.5 })
    expect(
      normaliseValue({ __type: 'GeoPoint', latitude: -90, longitude: 180, extra: 1 }, 'at'),
    ).toEqual({ __type: 'GeoPoint', latitude: -90, longitude: 180 })
  })

  it('stores coordinates below 1e-100 degrees as 0, so that no distance underflows', () => {
    expect(
      normaliseValue({ __type: 'GeoPoint', latitude: 5e-324, longitude: -1e-101 }, 'at'),
    ).toEqual({ __type: 'GeoPoint', latitude: 0, longitude: 0 })
    expect(normaliseValue({ __type: 'GeoPoint', latitude: 1e-100, longitude: 2 }, 'at')).toEqual({
      __type: 'GeoPoint',
      latitude: 1e-100,
      longitude: 2,
    })
    expect(
      normaliseValue(
        {
          __type: 'Polygon',
          coordinates: [
            [1e-200, 0],
            [0, 1],
            [1, 1],
          ],
        },
        'area',
      ),
    ).toEqual({
      __type: 'Polygon',
      coordinates: [
        [0, 0],
        [0, 1],
        [1, 1],
        [0, 0],
      ],
    })
  })

  it('refuses a GeoPoint that is not a point on Earth', () => {
    expect(
      refusal(() => normaliseValue({ __type: 'GeoPoint', latitude: 91, longitude: 0 }, 'at')),
    ).toEqual(invalidValue('"at" is not a valid GeoPoint: its latitude 91 is outside -90 to 90.'))
    expect(
      refusal(() => normaliseValue({ __type: 'GeoPoint', latitude: 0, longitude: -180.5 }, 'at')),
    ).toEqual(
      invalidValue('"at" is not a valid GeoPoint: its longitude -180.5 is outside -180 to 180.'),
    )
    expect(
      refusal(() => normaliseValue({ __type: 'GeoPoint', latitude: '1', longitude: 0 }, 'at')),
    ).toEqual(invalidValue('"at" is not a valid GeoPoint: its latitude is not a number.'))
    expect(refusal(() => normaliseValue({ __type: 'GeoPoint', latitude: 1 }, 'at'))).toEqual(
      invalidValue('"at" is not a valid GeoPoint: its longitude is not a number.'),
    )
  })

  it('closes a Polygon as Parse Server stores it, and keeps a closed one as it is', () => {
    const open = {
      __type: 'Polygon',
      coordinates: [
        [0, 0],
        [0, 10],
        [10, 10],
      ],
    }
    const closed = {
      __type: 'Polygon',
      coordinates: [
        [0, 0],
        [0, 10],
        [10, 10],
        [0, 0],
      ],
    }
    expect(normaliseValue(open, 'area')).toEqual(closed)
    expect(normaliseValue(closed, 'area')).toEqual(closed)
  })

  it('refuses a Polygon of fewer than 3 different points or with a point off Earth', () => {
    const polygon = (coordinates: unknown) => () =>
      normaliseValue({ __type: 'Polygon', coordinates }, 'area')
    const few = invalidValue(
      '"area" is a Polygon without at least 3 [latitude, longitude] "coordinates".',
    )
    expect(
      refusal(
        polygon([
          [0, 0],
          [1, 1],
        ]),
      ),
    ).toEqual(few)
    expect(refusal(polygon('0,0'))).toEqual(few)
    expect(
      refusal(
        polygon([
          [0, 0],
          [1, 1],
          [0, 0],
        ]),
      ),
    ).toEqual(invalidValue('"area" is a Polygon without 3 different points.'))
    expect(
      refusal(
        polygon([
          [0, 0],
          [1, 1],
          [91, 0],
        ]),
      ),
    ).toEqual(
      invalidValue(
        '"area.coordinates[2]" is not a valid point: its latitude 91 is outside -90 to 90.',
      ),
    )
    expect(refusal(polygon([[0, 0], [1, 1], [2]]))).toEqual(
      invalidValue('"area.coordinates[2]" is not a [latitude, longitude] pair.'),
    )
  })

  it('keeps Bytes whose base64 is valid and refuses any other', () => {
    expect(normaliseValue({ __type: 'Bytes', base64: 'aGVsbG8=' }, 'raw')).toEqual({
      __type: 'Bytes',
      base64: 'aGVsbG8=',
    })
    expect(normaliseValue({ __type: 'Bytes', base64: '' }, 'raw')).toEqual({
      __type: 'Bytes',
      base64: '',
    })
    for (const base64 of ['aGVsbG8', 'a b=', '!!!!', 12, undefined])
      expect(refusal(() => normaliseValue({ __type: 'Bytes', base64 }, 'raw'))).toEqual(
        invalidValue('"raw" is Bytes without a valid "base64" string.'),
      )
  })

  it('normalises typed values inside embedded objects and arrays, which stay as they are', () => {
    const document = normaliseDocument({
      nested: {
        list: [1, [2, { deep: true }], { __type: 'GeoPoint', latitude: 1, longitude: 2, x: 0 }],
        shape: {
          __type: 'Polygon',
          coordinates: [
            [1, 1],
            [1, 2],
            [2, 2],
          ],
        },
        empty: {},
      },
    })
    expect(document).toEqual({
      nested: {
        list: [1, [2, { deep: true }], { __type: 'GeoPoint', latitude: 1, longitude: 2 }],
        shape: {
          __type: 'Polygon',
          coordinates: [
            [1, 1],
            [1, 2],
            [2, 2],
            [1, 1],
          ],
        },
        empty: {},
      },
    })
  })

  it('still refuses an unknown __type', () => {
    expect(refusal(() => normaliseValue({ __type: 'Unknown' }, 'x'))).toEqual(
      invalidValue('"x" has an unknown __type.'),
    )
  })
})
