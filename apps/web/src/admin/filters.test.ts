import { describe, expect, it } from 'vitest'
import type { GridColumn } from './field-types.ts'
import { parseJsonWhere, whereOf } from './filters.ts'

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
