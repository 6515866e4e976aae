// Entry point `@portico/sdk`: everything but the vendor wallet connectors, which have entry points
// of their own (`@portico/sdk/wallet/walletconnect`, `/wallet/magic`, `/wallet/web3auth`).
// Narrower entry points (`/rpc`, `/auth`, `/backend`, `/events`, `/version`, `/wallet`,
// `/portico`, `/errors`) keep bundles small where a bundler does not tree-shake.
export * from './errors/index.ts'
export * from './rpc/index.ts'
export * from './auth/index.ts'
export * from './backend/index.ts'
export * from './events/index.ts'
export * from './version/index.ts'
export * from './wallet/index.ts'
export * from './portico/index.ts'
export type { ErrorCode } from './wire/index.ts'
export type * from './wire/types.ts'
