import type { FromSchema } from 'json-schema-to-ts'
import type { errorBodySchema } from './error-codes.ts'
import type {
  liveClientMessageSchema,
  liveConnectMessageSchema,
  liveErrorMessageSchema,
  liveEventMessageSchema,
  liveServerMessageSchema,
  liveSubscribeMessageSchema,
  liveUnsubscribeMessageSchema,
} from './live.ts'
import type {
  batchAnswerSchema,
  eventBodySchema,
  eventStatsQuerySchema,
  eventStatsSchema,
  linkedWalletsAnswerSchema,
  linkWalletBodySchema,
  nonceAnswerSchema,
  objectSchema,
  queryAnswerSchema,
  sessionAnswerSchema,
  sessionsAnswerSchema,
  signInAnswerSchema,
  verifyBodySchema,
} from './schemas.ts'
import type {
  createRoleBodySchema,
  roleMembersSchema,
  roleSchema,
  roleSummarySchema,
  rolesAnswerSchema,
  updateRoleBodySchema,
} from './roles.ts'

// The API's types, derived from its schemas: a change of shape is a change of type on both sides.

/** An object as the server answers it (dates as ISO strings, values in their wire form). */
export type WireObject = FromSchema<typeof objectSchema>
export type QueryAnswer = FromSchema<typeof queryAnswerSchema>
export type BatchAnswer = FromSchema<typeof batchAnswerSchema>
/** What `POST /api/auth/nonce` answers: the nonce and what the message must name. */
export type SignInNonce = FromSchema<typeof nonceAnswerSchema>
export type VerifyBody = FromSchema<typeof verifyBodySchema>
/** What a sign-in answers; `token` only in bearer mode. */
export type SignInResult = FromSchema<typeof signInAnswerSchema>
/** The signed-in user and the current session (`GET /api/auth/session`). */
export type CurrentSession = FromSchema<typeof sessionAnswerSchema>
export type SessionInfo = FromSchema<typeof sessionsAnswerSchema>['sessions'][number]
export type LinkWalletBody = FromSchema<typeof linkWalletBodySchema>
/** A wallet of the signed-in user (`GET /api/auth/wallets`): it signs in as them. */
export type LinkedWallet = FromSchema<typeof linkedWalletsAnswerSchema>['wallets'][number]
export type EventBody = FromSchema<typeof eventBodySchema>
export type EventStatsQuery = FromSchema<typeof eventStatsQuerySchema>
/** Event counts per time bucket, event and subdomain (`GET /api/events/stats`). */
export type EventStats = FromSchema<typeof eventStatsSchema>
export type ErrorBody = FromSchema<typeof errorBodySchema>
/** A role in a list (`GET /api/roles`), with how many users and roles it holds directly. */
export type WireRoleSummary = FromSchema<typeof roleSummarySchema>
/** One role (`GET /api/roles/:name`): its users, child roles and the roles that contain it. */
export type WireRole = FromSchema<typeof roleSchema>
export type RolesAnswer = FromSchema<typeof rolesAnswerSchema>
/** Users (ids or wallet addresses) and roles (names or ids) named by a request. */
export type RoleMembers = FromSchema<typeof roleMembersSchema>
export type CreateRoleBody = FromSchema<typeof createRoleBodySchema>
export type UpdateRoleBody = FromSchema<typeof updateRoleBodySchema>

// The live protocol's messages (`/api/live`).

export type LiveConnectMessage = FromSchema<typeof liveConnectMessageSchema>
export type LiveSubscribeMessage = FromSchema<typeof liveSubscribeMessageSchema>
export type LiveUnsubscribeMessage = FromSchema<typeof liveUnsubscribeMessageSchema>
/** Any message a client sends on `/api/live`. */
export type LiveClientMessage = FromSchema<typeof liveClientMessageSchema>
export type LiveErrorMessage = FromSchema<typeof liveErrorMessageSchema>
/** A change to an object one subscription matches. */
export type LiveEventMessage = FromSchema<typeof liveEventMessageSchema>
/** Any message the server sends on `/api/live`. */
export type LiveServerMessage = FromSchema<typeof liveServerMessageSchema>
