// Entry point `@portico/sdk/wallet`: wallet discovery and connection (browser wallets; vendor
// connectors have entry points of their own so their SDKs stay out of other bundles).
export { createWallet, type CreateWalletParameters, type Wallet } from './create-wallet.ts'
export { injectedWaitMs, waitForInjectedWallet, type InjectedWindow } from './detect-injected.ts'
export {
  importVendor,
  vendorConnector,
  type VendorConnectorParameters,
} from './vendor-connector.ts'
export {
  initialWalletState,
  type WalletConnectorInfo,
  type WalletKind,
  type WalletState,
  type WalletStatus,
  type WalletVendorConfig,
  type WalletVendors,
} from './types.ts'
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
} from '../errors/wallet.ts'
export { chainName } from '../chain-names.ts'
