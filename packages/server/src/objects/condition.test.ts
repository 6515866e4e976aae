import { describe, expect, it } from 'vitest'
import { HttpError } from '../errors.ts'
import { fieldTerms, parseWhere, parseWhereText, unquote } from './condition.ts'

// The `where` parser alone: the tree it builds and the refusals (status, code and message the
// query routes answer with) for malformed input.

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

const invalidQuery = (message: string) => ({ statusCode: 400, code: 'invalid_query', message })

describe('parseWhere', () => {
  it('reads each operator into one typed term, in the order written', () => {
    const when = { __type: 'Date', iso: '2024-01-01T01:00:00+01:00' }
    expect(
      parseWhere({
        name: 'bob',
        score: { $gte: 5, $lt: 9.5 },
        label: { $gt: 'a' },
        when: { $lte: when },
        tags: { $in: ['a', null], $all: ['b'] },
        gone: { $exists: false },
        text: { $options: 'im', $regex: '^a' },
        friend: { __type: 'Pointer', className: 'Player', objectId: 'p1' },
        nothing: null,
      }).terms,
    ).toEqual([
      { kind: 'field', field: 'name', test: { op: '$eq', value: 'bob' } },
      { kind: 'field', field: 'score', test: { op: '$gte', bound: { type: 'number', value: 5 } } },
      { kind: 'field', field: 'score', test: { op: '$lt', bound: { type: 'number', value: 9.5 } } },
      { kind: 'field', field: 'label', test: { op: '$gt', bound: { type: 'string', value: 'a' } } },
      // Dates in their canonical form, which sorts as text in time order.
      {
        kind: 'field',
        field: 'when',
        test: { op: '$lte', bound: { type: 'date', iso: '2024-01-01T00:00:00.000Z' } },
      },
      { kind: 'field', field: 'tags', test: { op: '$in', values: ['a', null] } },
      { kind: 'field', field: 'tags', test: { op: '$all', values: ['b'] } },
      { kind: 'field', field: 'gone', test: { op: '$exists', exists: false } },
      { kind: 'field', field: 'text', test: { op: '$regex', pattern: '^a', options: 'im' } },
      {
        kind: 'field',
        field: 'friend',
        test: { op: '$eq', value: { __type: 'Pointer', className: 'Player', objectId: 'p1' } },
      },
      { kind: 'field', field: 'nothing', test: { op: '$eq', value: null } },
    ])
  })

  it('reads the envelope fields as typed column terms and nests $or and $and', () => {
    const condition = parseWhere({
      $or: [{ owner: 'u1' }, { $and: [{ objectId: { $in: ['a', 'b'] } }, {}] }],
      createdAt: { $gt: { __type: 'Date', iso: '2024-01-01T00:00:00Z' } },
      updatedAt: { $lt: '2024-02-01', $exists: 'anything' },
    })
    expect(condition.terms).toEqual([
      {
        kind: 'or',
        of: [
          { terms: [{ kind: 'id', field: 'owner', test: { op: '$eq', value: 'u1' } }] },
          {
            terms: [
              {
                kind: 'and',
                of: [
                  {
                    terms: [
                      { kind: 'id', field: 'objectId', test: { op: '$in', values: ['a', 'b'] } },
                    ],
                  },
                  { terms: [] },
                ],
              },
            ],
          },
        ],
      },
      {
        kind: 'time',
        field: 'createdAt',
        test: { op: '$gt', value: new Date('2024-01-01T00:00:00Z') },
      },
      {
        kind: 'time',
        field: 'updatedAt',
        test: { op: '$lt', value: new Date('2024-02-01') },
      },
      // The envelope's columns always exist: anything but true asks for none.
      { kind: 'time', field: 'updatedAt', test: { op: '$exists', exists: false } },
    ])
    expect([...fieldTerms(condition)].map((term) => term.field)).toEqual([
      'owner',
      'objectId',
      'createdAt',
      'updatedAt',
      'updatedAt',
    ])
  })

  it('reads the geo operators into typed terms, the distance of $nearSphere in radians', () => {
    const sfo = { __type: 'GeoPoint', latitude: 37.6, longitude: -122.4 }
    const where = {
      at: { $nearSphere: sfo, $maxDistanceInKilometers: 6371 },
      near: { $maxDistanceInMiles: 3959 * 2, $nearSphere: { latitude: 1, longitude: 2 } },
      any: { $nearSphere: sfo },
      box: { $within: { $box: [sfo, { __type: 'GeoPoint', latitude: 40, longitude: -120 }] } },
      shape: { $geoWithin: { $polygon: [sfo, [10, 20], [30, -40]] } },
      round: { $geoWithin: { $centerSphere: [[-122.4, 37.6], 0.25] } },
      area: { $geoIntersects: { $point: sfo } },
    }
    const point = { latitude: 37.6, longitude: -122.4 }
    expect(parseWhere(where).terms).toEqual([
      { kind: 'field', field: 'at', test: { op: '$nearSphere', point, maxDistance: 1 } },
      {
        kind: 'field',
        field: 'near',
        test: { op: '$nearSphere', point: { latitude: 1, longitude: 2 }, maxDistance: 2 },
      },
      { kind: 'field', field: 'any', test: { op: '$nearSphere', point, maxDistance: undefined } },
      {
        kind: 'field',
        field: 'box',
        test: { op: '$box', southwest: point, northeast: { latitude: 40, longitude: -120 } },
      },
      // Bare pairs are [longitude, latitude], as Parse Server reads them.
      {
        kind: 'field',
        field: 'shape',
        test: {
          op: '$polygon',
          points: [point, { latitude: 20, longitude: 10 }, { latitude: -40, longitude: 30 }],
        },
      },
      {
        kind: 'field',
        field: 'round',
        test: { op: '$centerSphere', center: point, radians: 0.25 },
      },
      { kind: 'field', field: 'area', test: { op: '$geoIntersects', point } },
    ])
    // A distance goes with its $nearSphere and is not a condition of its own.
    const many = Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`f${i}`, i]))
    expect(parseWhere({ ...many, at: { $nearSphere: sfo, $maxDistance: 1 } }).terms).toHaveLength(
      50,
    )
  })

  it('reads a plain object without operators as a value to equal', () => {
    expect(parseWhere({ a: {}, b: { k: [1] } }).terms).toEqual([
      { kind: 'field', field: 'a', test: { op: '$eq', value: {} } },
      { kind: 'field', field: 'b', test: { op: '$eq', value: { k: [1] } } },
    ])
    expect(parseWhere({}).terms).toEqual([])
  })

  it('refuses malformed input with the same codes and messages as the routes always gave', () => {
    const cases: [unknown, object][] = [
      [[1], invalidQuery('"where" must be a JSON object of field constraints.')],
      [null, invalidQuery('"where" must be a JSON object of field constraints.')],
      [{ $or: [5] }, invalidQuery('"where" must be a JSON object of field constraints.')],
      [{ $or: 'x' }, invalidQuery('$or takes an array.')],
      [{ $and: [] }, invalidQuery('$and takes at least one condition.')],
      [
        { $or: [{ $or: [{ $or: [{ $or: [{ a: 1 }] }] }] }] },
        invalidQuery('$or, $and and $nor nest at most 4 deep.'),
      ],
      [{ score: { $regex: 5 } }, invalidQuery('$regex takes a string.')],
      [
        { a: { $regex: 'x'.repeat(501) } },
        invalidQuery('$regex patterns are at most 500 characters.'),
      ],
      [
        { name: { $regex: 'a', $options: 'q' } },
        invalidQuery('$options takes any of the letters i, m, s and x.'),
      ],
      [{ name: { $options: 'i' } }, invalidQuery('$options goes with $regex.')],
      [{ score: { $gt: [1] } }, invalidQuery('$gt compares numbers, strings or dates.')],
      [{ score: { $lte: true } }, invalidQuery('$lte compares numbers, strings or dates.')],
      [{ score: { $in: 5 } }, invalidQuery('$in takes an array.')],
      [
        { a: { $nin: Array.from({ length: 1001 }, () => 1) } },
        invalidQuery('$nin takes at most 1000 values.'),
      ],
      [
        { score: { $gt: 1, plain: 2 } },
        invalidQuery('A constraint cannot mix operators ($...) with plain keys.'),
      ],
      [{ active: { $exists: 'yes' } }, invalidQuery('$exists takes true or false.')],
      [{ a: { [`$${'x'.repeat(40)}`]: 1 } }, invalidQuery(`Unknown operator $${'x'.repeat(19)}.`)],
      [{ objectId: 5 }, invalidQuery('objectId and owner compare with strings.')],
      [{ owner: { $in: ['u1', 2] } }, invalidQuery('objectId and owner compare with strings.')],
      [{ createdAt: 'soon' }, invalidQuery('createdAt and updatedAt compare with dates.')],
      [{ objectId: { $regex: 'a' } }, invalidQuery('$regex applies to document fields.')],
      [{ owner: { $all: ['a'] } }, invalidQuery('$all applies to array fields.')],
      [
        Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, i])),
        invalidQuery('A query takes at most 50 conditions.'),
      ],
      [
        { when: { __type: 'Date', iso: 'never' } },
        {
          statusCode: 400,
          code: 'invalid_value',
          message: '"when" is a Date without a valid "iso" time.',
        },
      ],
      [
        { a: { $in: [{ __type: 'Blob' }] } },
        { statusCode: 400, code: 'invalid_value', message: '"a[0]" has an unknown __type.' },
      ],
    ]
    for (const [where, expected] of cases)
      expect(
        refusal(() => parseWhere(where)),
        JSON.stringify(where),
      ).toEqual(expected)

    for (const name of ['className', 'ACL', '_x', 'bad-name', '$where', '__proto__']) {
      const { statusCode, code, message } = refusal(() => parseWhere(JSON.parse(`{"${name}": 1}`)))
      expect([statusCode, code]).toEqual([400, 'invalid_field_name'])
      expect(message).toContain(`Invalid field name "${name}"`)
    }
  })

  it('refuses at the first problem as written; the count of conditions only once all is read', () => {
    expect(refusal(() => parseWhere({ a: { $regex: 1 }, 'b-c': 1 })).message).toBe(
      '$regex takes a string.',
    )
    expect(refusal(() => parseWhere({ 'b-c': 1, a: { $regex: 1 } })).code).toBe(
      'invalid_field_name',
    )
    // A value is checked before the operator's own rule.
    expect(refusal(() => parseWhere({ a: { $in: { __type: 'Date', iso: 'x' } } })).code).toBe(
      'invalid_value',
    )
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, i]))
    expect(refusal(() => parseWhere({ ...many, last: { $foo: 1 } })).message).toBe(
      'Unknown operator $foo.',
    )
    // $options is not counted: 25 regexes with options are 25 conditions.
    const regexes = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [`f${i}`, { $regex: 'a', $options: 'i' }]),
    )
    expect(parseWhere(regexes).terms).toHaveLength(25)
  })
})

describe('parseWhereText', () => {
  it('reads the query parameter: absent or empty is no condition, bad JSON is refused', () => {
    expect(parseWhereText(undefined)).toBeUndefined()
    expect(parseWhereText('')).toBeUndefined()
    expect(parseWhereText('{"a":1}')).toEqual({
      terms: [{ kind: 'field', field: 'a', test: { op: '$eq', value: 1 } }],
    })
    expect(refusal(() => parseWhereText('not json'))).toEqual(
      invalidQuery('"where" is not valid JSON.'),
    )
    expect(refusal(() => parseWhereText('null'))).toEqual(
      invalidQuery('"where" must be a JSON object of field constraints.'),
    )
  })
})

describe('unquote', () => {
  it('writes \\Q…\\E text as escaped characters, and keeps the rest of the pattern', () => {
    expect(unquote('\\Qa.b\\E')).toBe('a\\.b')
    expect(unquote('^\\Q(x)\\E$')).toBe('^\\(x\\)$')
    // Quoted to the end without \E; a newline as \u000a.
    expect(unquote('\\Qa\nb')).toBe('a\\u000ab')
    // An escaped backslash before Q is not a quote.
    expect(unquote('\\\\Q.')).toBe('\\\\Q.')
    // What the clients send for text holding \E: \Qa\E\\E\Qb\E.
    expect(unquote('\\Qa\\E\\\\E\\Qb\\E')).toBe('a\\\\Eb')
    expect(unquote('\\Qcafé 1\\E')).toBe('café\\ 1')
  })
})
