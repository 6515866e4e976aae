// Public entry point of @portico/sdk. Each module is also importable on its own
// (`@portico/sdk/rpc/connectNode`), which keeps bundles small.
export { BaseError, type BaseErrorParameters } from './errors/base.ts'
export {
  ChainUrlMissingError,
  ErrorResponseError,
  isNodeTransportError,
  NoResponseError,
  NodeConfigMissingError,
  UnexpectedRpcResponseError,
  type NodeTransportError,
} from './errors/rpc.ts'
export { InvalidConversionInputError, InvalidNumberError } from './errors/convert.ts'
export { fromDecimalToHex, fromHexToBigInt, fromHexToDecimal } from './convert.ts'
export {
  connectNode,
  type ChainIdInput,
  type ConnectNodeParameters,
  type NodeClient,
} from './rpc/connect-node.ts'
export { nodeDefaults } from './rpc/defaults.ts'
export { sdkVersion } from './version/sdk-version.ts'
export {
  BackendError,
  BatchError,
  InvalidDateError,
  InvalidWireValueError,
  UnsavedFileError,
  type BackendErrorParameters,
} from './errors/backend.ts'
export {
  createBackendClient,
  type BackendClient,
  type BackendClientConfig,
  type BackendFetch,
  type HttpMethod,
  type RequestOptions,
} from './backend/client.ts'
export { decode, encode, type DecodeErrorType, type EncodeErrorType } from './backend/encode.ts'
export { createFile, Pointer, pointerTo, PorticoFile, type FileContent } from './backend/values.ts'
export {
  destroyAll,
  destroyObject,
  fetchObject,
  queryObjects,
  saveAll,
  saveObject,
  type ObjectData,
  type ObjectRef,
  type PorticoObject,
  type QueryObjectsParameters,
  type QueryObjectsReturnType,
  type SavedObject,
  type SaveObjectErrorType,
  type SaveObjectReturnType,
} from './backend/objects.ts'
export { saveFile, type SaveFileErrorType } from './backend/files.ts'
export {
  ChainNotAllowedError,
  ConnectorNotFoundError,
  MagicLinkError,
  NoBrowserWalletError,
  WalletConnectError,
  WalletNotConnectedError,
  Web3AuthError,
  type Web3AuthFailure,
} from './errors/wallet.ts'
export {
  authFlags,
  authReducer,
  initialAuthState,
  type AuthEvent,
  type AuthState,
  type AuthStatus,
  type AuthUser,
  type SessionLostReason,
} from './portico/auth-machine.ts'
export {
  createPortico,
  type Portico,
  type PorticoConfig,
  type SignInParameters,
} from './portico/create-portico.ts'
export type { SignInStep } from './portico/sign-in-flow.ts'
export { createStore, type Store } from './store/store.ts'
export {
  initialWalletState,
  type WalletConnectorInfo,
  type WalletKind,
  type WalletState,
  type WalletStatus,
  type WalletVendorConfig,
} from './wallet/types.ts'
export {
  injectedWaitMs,
  waitForInjectedWallet,
  type InjectedWindow,
} from './wallet/detect-injected.ts'
export { walletConnect, type WalletConnectParameters } from './wallet/wallet-connect.ts'
export { magicLink, type MagicLinkParameters } from './wallet/magic.ts'
export { web3Auth, web3AuthDefaultChainId, type Web3AuthParameters } from './wallet/web3-auth.ts'
export { vendorConnector, type VendorConnectorParameters } from './wallet/vendor-connector.ts'
export { createWallet, type CreateWalletParameters, type Wallet } from './wallet/create-wallet.ts'
export { getNonce, type GetNonceReturnType, type SignInNonce } from './auth/nonce.ts'
export { createSignInMessage, type CreateSignInMessageParameters } from './auth/message.ts'
export {
  verifySignIn,
  type SignInResult,
  type VerifySignInParameters,
  type VerifySignInReturnType,
} from './auth/verify.ts'
export {
  getSession,
  listSessions,
  revokeSession,
  signOut,
  type CurrentSession,
  type GetSessionReturnType,
  type SessionInfo,
} from './auth/session.ts'
export { trackEvent, type TrackEventParameters } from './events/track-event.ts'
export {
  checkVersion,
  compareVersions,
  getVersion,
  type CheckVersionParameters,
  type CheckVersionReturnType,
  type ServerVersion,
} from './version/check-version.ts'
export {
  getApiDescription,
  supportsOperation,
  type ApiDescription,
} from './apiDescription/get-api-description.ts'
export { SdkVersionUnsupportedError } from './errors/version.ts'
