import { describe, expect, it } from 'vitest'
import {
  embeddedParseObject,
  isPointer,
  parseFields,
  parseTime,
  queryValue,
  timeAlias,
  toParseObject,
} from './parse-shape.ts'
import type { WireObject } from './rows.ts'

// Parse's object JSON alone: a stored object to it and back, the time aliases and the values a
// query compares.

const stored: WireObject = {
  objectId: 'abc',
  className: 'Post',
  owner: 'u1',
  acl: { '*': { read: true }, u1: { read: true, write: true } },
  publicRead: true,
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-03T03:04:05.000Z',
  data: { title: 'hi', score: 3 },
}

describe('the Parse shape', () => {
  it('answers a stored object as Parse clients read it, keys kept or not', () => {
    expect(toParseObject(stored)).toEqual({
      title: 'hi',
      score: 3,
      objectId: 'abc',
      createdAt: stored.createdAt,
      updatedAt: stored.updatedAt,
      ACL: stored.acl,
    })
    expect(toParseObject(stored, ['score'])).toEqual({
      score: 3,
      objectId: 'abc',
      createdAt: stored.createdAt,
      updatedAt: stored.updatedAt,
      ACL: stored.acl,
    })
    expect(embeddedParseObject(stored)).toMatchObject({ __type: 'Object', className: 'Post' })
  })

  it('reads back only the document fields of Parse object JSON', () => {
    expect(parseFields(embeddedParseObject(stored))).toEqual({ title: 'hi', score: 3 })
  })

  it('reads the storage names of the times as the times, and nothing else', () => {
    expect(timeAlias('_created_at')).toBe('createdAt')
    expect(timeAlias('_updated_at')).toBe('updatedAt')
    expect(timeAlias('_rperm')).toBe('_rperm')
    expect(timeAlias('constructor')).toBe('constructor')
  })

  it('reads a time as an ISO string or a Date value, and refuses anything else', () => {
    expect(parseTime('2026-01-02T03:04:05.000Z')?.toISOString()).toBe('2026-01-02T03:04:05.000Z')
    expect(parseTime({ __type: 'Date', iso: '2026-01-02T03:04:05Z' })?.getTime()).toBe(
      Date.parse('2026-01-02T03:04:05Z'),
    )
    for (const bad of [undefined, null, 5, 'yesterday', { iso: 7 }])
      expect(parseTime(bad)).toBe(undefined)
  })

  it('gives the value a query compares: the id, a time as a Date, or a field', () => {
    expect(queryValue(stored, 'objectId')).toBe('abc')
    expect(queryValue(stored, 'createdAt')).toEqual({ __type: 'Date', iso: stored.createdAt })
    expect(queryValue(stored, 'score')).toBe(3)
    expect(queryValue(stored, 'missing')).toBe(undefined)
  })

  it('knows a pointer from what only looks like one', () => {
    expect(isPointer({ __type: 'Pointer', className: 'Post', objectId: 'abc' })).toBe(true)
    expect(isPointer({ __type: 'Pointer', className: 'Post' })).toBe(false)
    expect(isPointer({ __type: 'Object', className: 'Post', objectId: 'abc' })).toBe(false)
    expect(isPointer(null)).toBe(false)
  })
})
