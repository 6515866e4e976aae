import { describe, expect, it } from 'vitest'
import type { GridColumn } from './field-types.ts'
import { operatorsFor, parseJsonWhere, whereOf, type FilterRow } from './filters.ts'

const columns: GridColumn[] = [
  { key: 'objectId', type: 'string', builtIn: true },
  { key: 'title', type: 'string' },
  { key: 'score', type: 'number' },
  { key: 'done', type: 'boolean' },
  { key: 'due', type: 'date' },
  { key: 'team', type: 'pointer', targetClass: 'Team' },
  { key: 'createdAt', type: 'date', builtIn: true },
]

describe('the filter bar', () => {
  it('turns field, operator and value rows into one where', () => {
    expect(
      whereOf(
        [
          { field: 'score', op: 'gte', value: '5' },
          { field: 'score', op: 'lt', value: '9' },
          { field: 'title', op: 'startsWith', value: 'a.b' },
          { field: 'done', op: 'eq', value: 'true' },
          { field: 'team', op: 'eq', value: 'abc' },
          { field: 'due', op: 'exists', value: '' },
        ],
        columns,
      ),
    ).toEqual({
      where: {
        score: { $gte: 5, $lt: 9 },
        title: { $regex: '^a\\.b' },
        done: { $eq: true },
        team: { $eq: { __type: 'Pointer', className: 'Team', objectId: 'abc' } },
        due: { $exists: true },
      },
    })
    expect(whereOf([], columns)).toEqual({ where: undefined })
  })

  it('compares dates as Dates, and the built-in times as ISO text', () => {
    const iso = new Date('2024-01-02T03:04:05').toISOString()
    expect(whereOf([{ field: 'due', op: 'gt', value: '2024-01-02T03:04:05' }], columns)).toEqual({
      where: { due: { $gt: { __type: 'Date', iso } } },
    })
    expect(
      whereOf([{ field: 'createdAt', op: 'gt', value: '2024-01-02T03:04:05' }], columns),
    ).toEqual({ where: { createdAt: { $gt: iso } } })
  })

  it('says what is wrong rather than dropping a condition', () => {
    expect(whereOf([{ field: 'score', op: 'gt', value: 'many' }], columns)).toHaveProperty(
      'problem',
    )
    expect(whereOf([{ field: 'gone', op: 'eq', value: '1' }], columns)).toHaveProperty('problem')
    expect(
      whereOf(
        [
          { field: 'score', op: 'gt', value: '1' },
          { field: 'score', op: 'gt', value: '2' },
        ],
        columns,
      ),
    ).toHaveProperty('problem')
    expect(parseJsonWhere('[1]')).toHaveProperty('problem')
    expect(parseJsonWhere('{"a":')).toHaveProperty('problem')
    expect(parseJsonWhere(' ')).toEqual({ where: undefined })
  })
})

describe('tests by type and OR groups', () => {
  const typed: GridColumn[] = [
    ...columns,
    { key: 'tags', type: 'array' },
    { key: 'place', type: 'geopoint' },
  ]
  const one = (row: FilterRow) => whereOf([row], typed)

  it('offers each type its own tests', () => {
    const ops = (type: GridColumn['type']) => operatorsFor(type).map((entry) => entry.op)
    expect(ops('string')).toEqual(
      expect.arrayContaining(['in', 'nin', 'endsWith', 'regex', 'contains']),
    )
    expect(ops('array')).toContain('arrayContains')
    expect(ops('array')).not.toContain('regex')
    expect(ops('geopoint')).toEqual(expect.arrayContaining(['near', 'withinBox']))
    expect(ops('number')).not.toContain('near')
    expect(one({ field: 'score', op: 'near', value: '1, 2, 3' })).toEqual({
      problem: 'score cannot be tested with "is within km of".',
    })
  })

  it('reads lists, patterns, array items and places', () => {
    expect(one({ field: 'score', op: 'in', value: '1, 2,3' })).toEqual({
      where: { score: { $in: [1, 2, 3] } },
    })
    expect(one({ field: 'title', op: 'nin', value: 'a, b ' })).toEqual({
      where: { title: { $nin: ['a', 'b'] } },
    })
    expect(one({ field: 'team', op: 'in', value: 'x1,x2' })).toEqual({
      where: {
        team: {
          $in: [
            { __type: 'Pointer', className: 'Team', objectId: 'x1' },
            { __type: 'Pointer', className: 'Team', objectId: 'x2' },
          ],
        },
      },
    })
    expect(one({ field: 'score', op: 'in', value: '1, lots' })).toHaveProperty('problem')
    expect(one({ field: 'title', op: 'endsWith', value: '.eth' })).toEqual({
      where: { title: { $regex: '\\.eth$' } },
    })
    expect(one({ field: 'title', op: 'regex', value: '^v[0-9]+' })).toEqual({
      where: { title: { $regex: '^v[0-9]+' } },
    })
    expect(one({ field: 'title', op: 'regex', value: '(' })).toHaveProperty('problem')
    expect(one({ field: 'title', op: 'regex', value: 'a'.repeat(501) })).toHaveProperty('problem')
    expect(one({ field: 'tags', op: 'arrayContains', value: 'red' })).toEqual({
      where: { tags: { $all: ['red'] } },
    })
    expect(one({ field: 'tags', op: 'arrayContains', value: '7' })).toEqual({
      where: { tags: { $all: [7] } },
    })
    expect(one({ field: 'place', op: 'near', value: '48.85, 2.35, 10' })).toEqual({
      where: {
        place: {
          $nearSphere: { __type: 'GeoPoint', latitude: 48.85, longitude: 2.35 },
          $maxDistanceInKilometers: 10,
        },
      },
    })
    expect(one({ field: 'place', op: 'near', value: '91, 2, 10' })).toHaveProperty('problem')
    expect(one({ field: 'place', op: 'near', value: '48, 2' })).toHaveProperty('problem')
    expect(one({ field: 'place', op: 'withinBox', value: '48.8, 2.2; 48.9, 2.4' })).toEqual({
      where: {
        place: {
          $within: {
            $box: [
              { __type: 'GeoPoint', latitude: 48.8, longitude: 2.2 },
              { __type: 'GeoPoint', latitude: 48.9, longitude: 2.4 },
            ],
          },
        },
      },
    })
    expect(one({ field: 'place', op: 'withinBox', value: '48.9, 2.2; 48.8, 2.4' })).toHaveProperty(
      'problem',
    )
  })

  it('ORs the groups, each group holding all its rows', () => {
    expect(
      whereOf(
        [
          { field: 'score', op: 'gt', value: '5', group: 0 },
          { field: 'done', op: 'eq', value: 'true', group: 0 },
          { field: 'score', op: 'gt', value: '50', group: 1 },
        ],
        typed,
      ),
    ).toEqual({
      where: {
        $or: [{ score: { $gt: 5 }, done: { $eq: true } }, { score: { $gt: 50 } }],
      },
    })
    // The same test twice on one field is a clash in one group, and fine across groups.
    expect(
      whereOf(
        [
          { field: 'score', op: 'gt', value: '1' },
          { field: 'score', op: 'gt', value: '2', group: 1 },
        ],
        typed,
      ),
    ).toEqual({ where: { $or: [{ score: { $gt: 1 } }, { score: { $gt: 2 } }] } })
    expect(whereOf([{ field: 'score', op: 'gt', value: 'x', group: 3 }], typed)).toHaveProperty(
      'problem',
    )
  })
})
