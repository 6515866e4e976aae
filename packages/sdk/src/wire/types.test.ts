import { describe, expect, expectTypeOf, it } from 'vitest'
import { errorBodySchema, errorCodes, type ErrorCode } from './error-codes.ts'
import { eventStatsSchema } from './schemas.ts'
import { liveClientMessageSchema, liveEvents, liveServerMessageSchema } from './live.ts'
import type {
  CurrentSession,
  EventStats,
  LiveClientMessage,
  LiveEventMessage,
  LiveServerMessage,
  SessionInfo,
  SignInNonce,
  WireObject,
} from './types.ts'

describe('wire types, derived from the schemas', () => {
  it('have the shapes the schemas describe (checked by the type checker)', () => {
    expectTypeOf<EventStats['events'][number]>().toEqualTypeOf<{ event: string; count: number }>()
    expectTypeOf<EventStats['subdomains'][number]>().toEqualTypeOf<{
      subdomain: string
      count: number
    }>()
    expectTypeOf<EventStats['total']>().toEqualTypeOf<number>()
    expectTypeOf<WireObject['publicRead']>().toEqualTypeOf<boolean>()
    expectTypeOf<SignInNonce['chainIds']>().toEqualTypeOf<number[]>()
    expectTypeOf<SessionInfo['userAgent']>().toEqualTypeOf<string | null>()
    expectTypeOf<CurrentSession['session']['chainId']>().toEqualTypeOf<number>()
    expectTypeOf<'nonce_used'>().toExtend<ErrorCode>()
    expect(eventStatsSchema.required).toEqual(['buckets', 'events', 'subdomains', 'total'])
  })

  it('error codes are unique and listed in the error answer schema', () => {
    expect(new Set(errorCodes).size).toBe(errorCodes.length)
    expect(errorBodySchema.properties.error.properties.code.enum).toBe(errorCodes)
  })

  it('live messages are one per op, each named by its op', () => {
    expectTypeOf<LiveClientMessage['op']>().toEqualTypeOf<'connect' | 'subscribe' | 'unsubscribe'>()
    expectTypeOf<Extract<LiveClientMessage, { op: 'subscribe' }>['requestId']>().toEqualTypeOf<
      number | string
    >()
    expectTypeOf<LiveServerMessage['op']>().toEqualTypeOf<
      'connected' | 'subscribed' | 'unsubscribed' | 'error' | LiveEventMessage['op']
    >()
    expectTypeOf<LiveEventMessage['object']>().toEqualTypeOf<WireObject>()
    expectTypeOf<Extract<LiveServerMessage, { op: 'connected' }>['userId']>().toEqualTypeOf<
      string | null
    >()
    const ops = (schema: { oneOf: readonly { properties: { op: object } }[] }) =>
      schema.oneOf.map(({ properties: { op } }) => ('const' in op ? op.const : op))
    expect(ops(liveClientMessageSchema)).toEqual(['connect', 'subscribe', 'unsubscribe'])
    expect(ops(liveServerMessageSchema)).toEqual([
      'connected',
      'subscribed',
      'unsubscribed',
      'error',
      { type: 'string', enum: liveEvents },
    ])
  })
})
