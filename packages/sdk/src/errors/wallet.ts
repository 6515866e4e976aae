import { chainName } from '../chain-names.ts'
import { BaseError, type BaseErrorParameters } from './base.ts'

// Errors of wallet connection (docs/errors.md). Errors that wallets and viem raise themselves
// (user rejected, chain not configured, ...) keep their own classes; these wrap them only to add
// the catalogue message, with the original kept as `cause`. Code branches on `name` and on the
// typed `failure`, never on the free text of `reason` (which is what the message shows).

/** The reasons the catalogue lists for a failed Web3Auth (social login) connection. */
export type Web3AuthFailure =
  | 'client id missing'
  | 'error during initialization'
  | 'error in connecting to provider'
  | 'error while authenticating'

/** Why WalletConnect failed: not set up by the site, or the pairing/connection itself. */
export type WalletConnectFailure = 'project id missing' | 'connection failed'

/** WalletConnect could not pair or connect: `Could not connect via WalletConnect, <cause>`. */
export class WalletConnectError extends BaseError {
  override name = 'WalletConnectError' as const
  readonly failure: WalletConnectFailure
  /** The cause in words, as the message shows it. */
  readonly reason: string
  constructor({
    failure,
    reason = failure,
    ...parameters
  }: { failure: WalletConnectFailure; reason?: string } & BaseErrorParameters) {
    super(`Could not connect via WalletConnect, ${reason}`, parameters)
    this.failure = failure
    this.reason = reason
  }
}
export type WalletConnectErrorType = WalletConnectError & { name: 'WalletConnectError' }

/** Web3Auth (social login) failed at one of the catalogue's four steps. */
export class Web3AuthError extends BaseError {
  override name = 'Web3AuthError' as const
  readonly reason: Web3AuthFailure
  constructor({ reason, ...parameters }: { reason: Web3AuthFailure } & BaseErrorParameters) {
    super(`Could not connect via Web3Auth, ${reason}`, parameters)
    this.reason = reason
  }
  /** The same as `reason`: the catalogue's four failures are already typed. */
  get failure(): Web3AuthFailure {
    return this.reason
  }
}
export type Web3AuthErrorType = Web3AuthError & { name: 'Web3AuthError' }

/** Why the email link failed: not set up by the site, no address given, or the sign-in itself. */
export type MagicLinkFailure = 'API key missing' | 'email address missing' | 'sign-in failed'

/** Magic (email link) could not sign the user in. */
export class MagicLinkError extends BaseError {
  override name = 'MagicLinkError' as const
  readonly failure: MagicLinkFailure
  /** The cause in words, as the message shows it. */
  readonly reason: string
  constructor({
    failure,
    reason = failure,
    ...parameters
  }: { failure: MagicLinkFailure; reason?: string } & BaseErrorParameters) {
    super(`Could not connect via email link, ${reason}`, parameters)
    this.failure = failure
    this.reason = reason
  }
}
export type MagicLinkErrorType = MagicLinkError & { name: 'MagicLinkError' }

/** No browser wallet announced itself (EIP-6963) or appeared as `window.ethereum` in time. */
export class NoBrowserWalletError extends BaseError {
  override name = 'NoBrowserWalletError' as const
  constructor({ waitedMs, ...parameters }: { waitedMs: number } & BaseErrorParameters) {
    super('No browser wallet found', {
      ...parameters,
      metaMessages: [`Waited ${waitedMs} ms for a wallet extension to appear.`],
    })
  }
}
export type NoBrowserWalletErrorType = NoBrowserWalletError & { name: 'NoBrowserWalletError' }

/** A connector id that this Portico instance does not know. */
export class ConnectorNotFoundError extends BaseError {
  override name = 'ConnectorNotFoundError' as const
  constructor({ id }: { id: string }) {
    super(`No wallet connector "${id}"`)
  }
}
export type ConnectorNotFoundErrorType = ConnectorNotFoundError & { name: 'ConnectorNotFoundError' }

/** An action needs a connected wallet and none is connected. */
export class WalletNotConnectedError extends BaseError {
  override name = 'WalletNotConnectedError' as const
  constructor() {
    super('No wallet is connected')
  }
}
export type WalletNotConnectedErrorType = WalletNotConnectedError & {
  name: 'WalletNotConnectedError'
}

/** The wallet is on a chain the server does not accept for sign-in. */
export class ChainNotAllowedError extends BaseError {
  override name = 'ChainNotAllowedError' as const
  readonly chainId: number
  readonly allowed: readonly number[]
  constructor({ chainId, allowed }: { chainId: number; allowed: readonly number[] }) {
    super(`Your wallet is on ${chainName(chainId)}, which this site does not accept`, {
      metaMessages: [`Switch your wallet to ${allowed.map(chainName).join(' or ')}.`],
    })
    this.chainId = chainId
    this.allowed = allowed
  }
}
export type ChainNotAllowedErrorType = ChainNotAllowedError & { name: 'ChainNotAllowedError' }
