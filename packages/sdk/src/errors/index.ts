// Entry point `@portico/sdk/errors`: every error class the SDK raises, and the cause-chain walker.
export { BaseError, walk, type BaseErrorParameters } from './base.ts'
export { InvalidUrlError, type InvalidUrlErrorType } from './config.ts'
export {
  ChainUrlMissingError,
  ErrorResponseError,
  isNodeTransportError,
  NoResponseError,
  NodeConfigMissingError,
  UnexpectedRpcResponseError,
  type NodeTransportError,
  type NoResponseErrorType,
  type ErrorResponseErrorType,
  type UnexpectedRpcResponseErrorType,
  type NodeConfigMissingErrorType,
  type ChainUrlMissingErrorType,
} from './rpc.ts'
export {
  InvalidConversionInputError,
  InvalidNumberError,
  type InvalidConversionInputErrorType,
  type InvalidNumberErrorType,
} from './convert.ts'
export {
  BackendError,
  BatchError,
  InvalidDateError,
  InvalidWireValueError,
  UnsavedFileError,
  type BackendErrorCode,
  type BackendErrorParameters,
  type BackendErrorType,
  type UnsavedFileErrorType,
  type InvalidDateErrorType,
  type InvalidWireValueErrorType,
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
  type WalletConnectFailure,
  type MagicLinkFailure,
  type WalletConnectErrorType,
  type Web3AuthErrorType,
  type MagicLinkErrorType,
  type NoBrowserWalletErrorType,
  type ConnectorNotFoundErrorType,
  type WalletNotConnectedErrorType,
  type ChainNotAllowedErrorType,
} from './wallet.ts'
export { SdkVersionUnsupportedError, type SdkVersionUnsupportedErrorType } from './version.ts'
