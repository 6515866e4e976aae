// Entry point `@portico/sdk/errors`: every error class the SDK raises, and the cause-chain walker.
export { BaseError, walk, type BaseErrorParameters } from './base.ts'
export {
  ChainUrlMissingError,
  ErrorResponseError,
  isNodeTransportError,
  NoResponseError,
  NodeConfigMissingError,
  UnexpectedRpcResponseError,
  type NodeTransportError,
} from './rpc.ts'
export { InvalidConversionInputError, InvalidNumberError } from './convert.ts'
export {
  BackendError,
  BatchError,
  InvalidDateError,
  InvalidWireValueError,
  UnsavedFileError,
  type BackendErrorParameters,
} from './backend.ts'
export {
  ChainNotAllowedError,
  ConnectorNotFoundError,
  MagicLinkError,
  NoBrowserWalletError,
  WalletConnectError,
  WalletNotConnectedError,
  Web3AuthError,
  type Web3AuthFailure,
} from './wallet.ts'
export { SdkVersionUnsupportedError } from './version.ts'
