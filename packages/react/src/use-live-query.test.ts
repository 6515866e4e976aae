import { describe, expect, it } from 'vitest'
import type { SavedObject } from '@portico/sdk/backend'
import { applyLiveEvent } from './use-live-query.ts'

const object = (objectId: string, text: string): SavedObject<{ text: string }> => ({
  className: 'Note',
  objectId,
  owner: 'u',
  acl: { '*': { read: true }, u: { read: true, write: true } },
  publicRead: true,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  data: { text },
})

describe('applyLiveEvent', () => {
  const list = [object('b', 'second'), object('a', 'first')]
  it('puts created and entering objects first, within the limit', () => {
    expect(applyLiveEvent(list, 'create', object('c', 'third'), 2).map((o) => o.objectId)).toEqual([
      'c',
      'b',
    ])
    expect(applyLiveEvent(list, 'enter', object('a', 'again'), 5).map((o) => o.data.text)).toEqual([
      'again',
      'second',
    ])
  })
  it('replaces an updated object in place and ignores updates of objects it does not hold', () => {
    expect(
      applyLiveEvent(list, 'update', object('a', 'edited'), 5).map((o) => o.data.text),
    ).toEqual(['second', 'edited'])
    expect(applyLiveEvent(list, 'update', object('z', 'elsewhere'), 5)).toBe(list)
  })
  it('removes objects that leave or are deleted', () => {
    expect(applyLiveEvent(list, 'leave', object('b', 'second'), 5).map((o) => o.objectId)).toEqual([
      'a',
    ])
    expect(applyLiveEvent(list, 'delete', object('a', 'first'), 5).map((o) => o.objectId)).toEqual([
      'b',
    ])
  })
})
