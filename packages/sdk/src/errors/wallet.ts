import { BaseError, type BaseErrorParameters } from './base.ts'

// Errors of wallet connection (design.md section 6). Errors that wallets and viem raise themselves
// (user rejected, chain not configured, ...) keep their own classes; these wrap them only to add
// the catalogue message, with the original kept as `cause`.

/** The reasons the catalogue lists for a failed Web3Auth (social login) connection. */
export type Web3AuthFailure =
  | 'client id missing'
  | 'error during initialization'
  | 'error in connecting to provider'
  | 'error while authenticating'

/** WalletConnect could not pair or connect: `Could not connect via WalletConnect, <cause>`. */
export class WalletConnectError extends BaseError {
  override name = 'WalletConnectError' as const
  readonly reason: string
  constructor({ reason, ...parameters }: { reason: string } & BaseErrorParameters) {
    super(`Could not connect via WalletConnect, ${reason}`, parameters)
    this.reason = reason
  }
}

/** Web3Auth (social login) failed at one of the catalogue's four steps. */
export class Web3AuthError extends BaseError {
  override name = 'Web3AuthError' as const
  readonly reason: Web3AuthFailure
  constructor({ reason, ...parameters }: { reason: Web3AuthFailure } & BaseErrorParameters) {
    super(`Could not connect via Web3Auth, ${reason}`, parameters)
    this.reason = reason
  }
}

/** Magic (email link) could not sign the user in. */
export class MagicLinkError extends BaseError {
  override name = 'MagicLinkError' as const
  readonly reason: string
  constructor({ reason, ...parameters }: { reason: string } & BaseErrorParameters) {
    super(`Could not connect via email link, ${reason}`, parameters)
    this.reason = reason
  }
}

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

/** A connector id that this Portico instance does not know. */
export class ConnectorNotFoundError extends BaseError {
  override name = 'ConnectorNotFoundError' as const
  constructor({ id }: { id: string }) {
    super(`No wallet connector "${id}"`)
  }
}

/** An action needs a connected wallet and none is connected. */
export class WalletNotConnectedError extends BaseError {
  override name = 'WalletNotConnectedError' as const
  constructor() {
    super('No wallet is connected')
  }
}

/** The wallet is on a chain the server does not accept for sign-in. */
export class ChainNotAllowedError extends BaseError {
  override name = 'ChainNotAllowedError' as const
  readonly chainId: number
  readonly allowed: readonly number[]
  constructor({ chainId, allowed }: { chainId: number; allowed: readonly number[] }) {
    super(`Chain ${chainId} is not accepted for sign-in`, {
      metaMessages: [`Switch your wallet to chain ${allowed.join(' or ')}.`],
    })
    this.chainId = chainId
    this.allowed = allowed
  }
}
