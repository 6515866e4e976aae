// Entry point `@portico/sdk/wire`: the HTTP API's and the live protocol's shapes (JSON schemas,
// the types derived from them, and the error codes), shared by the server and the SDK.
export { errorBodySchema, errorCodes, type ErrorCode } from './error-codes.ts'
export * from './schemas.ts'
export * from './roles.ts'
export * from './live.ts'
export * from './synced-row.ts'
export * from './placeholder-users.ts'
export * from './console.ts'
export type * from './console-types.ts'
export type * from './types.ts'
