import { objectSchema } from './schemas.ts'

// The messages of `/api/live`, Portico's live-query WebSocket protocol, as JSON schemas written
// once: the server validates what clients send with them, and both sides' message types are
// derived from them (types.ts). Every message is one JSON object named by its `op`.
//
//   client: connect (optional, first), subscribe, unsubscribe
//   server: connected, subscribed, unsubscribed, error, and one event per matching change
//
// A client's messages may carry properties the server does not know (they are ignored), so a
// newer client still talks to an older server; the server's messages carry exactly these.

/** What happened to an object, as one subscription sees it. */
export const liveEvents = ['create', 'update', 'enter', 'leave', 'delete'] as const

/** The client's id of one subscription, echoed in every message about it. */
const requestId = { type: ['number', 'string'] } as const

/** Signs the socket in with a bearer session token (a browser on the site is signed in by its cookie). */
export const liveConnectMessageSchema = {
  type: 'object',
  properties: {
    op: { const: 'connect' },
    token: { type: 'string', description: 'A session token, as sent in `Authorization: Bearer`' },
  },
  required: ['op'],
} as const

/** Subscribes to the objects of a class that match `where`, as the socket's user may read them. */
export const liveSubscribeMessageSchema = {
  type: 'object',
  properties: {
    op: { const: 'subscribe' },
    requestId,
    className: { type: 'string' },
    where: { type: 'object', description: "The same constraints as a query's `where`" },
  },
  required: ['op', 'requestId', 'className'],
} as const

export const liveUnsubscribeMessageSchema = {
  type: 'object',
  properties: { op: { const: 'unsubscribe' }, requestId },
  required: ['op', 'requestId'],
} as const

/** Every message a client sends on `/api/live`. */
export const liveClientMessageSchema = {
  oneOf: [liveConnectMessageSchema, liveSubscribeMessageSchema, liveUnsubscribeMessageSchema],
} as const

export const liveConnectedMessageSchema = {
  type: 'object',
  properties: {
    op: { const: 'connected' },
    userId: { type: ['string', 'null'], description: 'The signed-in user; null for a visitor' },
  },
  required: ['op', 'userId'],
  additionalProperties: false,
} as const

export const liveSubscribedMessageSchema = {
  type: 'object',
  properties: { op: { const: 'subscribed' }, requestId },
  required: ['op', 'requestId'],
  additionalProperties: false,
} as const

export const liveUnsubscribedMessageSchema = {
  type: 'object',
  properties: { op: { const: 'unsubscribed' }, requestId },
  required: ['op', 'requestId'],
  additionalProperties: false,
} as const

/** A refused message; with the `requestId` of the subscription it refuses, when it names one. */
export const liveErrorMessageSchema = {
  type: 'object',
  properties: {
    op: { const: 'error' },
    requestId,
    code: { type: 'string' },
    message: { type: 'string' },
  },
  required: ['op', 'code', 'message'],
  additionalProperties: false,
} as const

/** A change to an object a subscription matches (`delete` and `leave` carry its last state). */
export const liveEventMessageSchema = {
  type: 'object',
  properties: {
    op: { type: 'string', enum: liveEvents },
    requestId,
    object: objectSchema,
  },
  required: ['op', 'requestId', 'object'],
  additionalProperties: false,
} as const

/** Every message the server sends on `/api/live`. */
export const liveServerMessageSchema = {
  oneOf: [
    liveConnectedMessageSchema,
    liveSubscribedMessageSchema,
    liveUnsubscribedMessageSchema,
    liveErrorMessageSchema,
    liveEventMessageSchema,
  ],
} as const
