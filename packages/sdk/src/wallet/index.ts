// Entry point `@portico/sdk/wallet`: wallet discovery and connection (browser wallets; vendor
// connectors have entry points of their own so their SDKs stay out of other bundles).
export { createWallet, type CreateWalletParameters, type Wallet } from './create-wallet.ts'
export { injectedWaitMs, waitForInjectedWallet, type InjectedWindow } from './detect-injected.ts'
export { vendorConnector, type VendorConnectorParameters } from './vendor-connector.ts'
export {
  initialWalletState,
  type WalletConnectorInfo,
  type WalletKind,
  type WalletState,
  type WalletStatus,
  type WalletVendorConfig,
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
} from '../errors/wallet.ts'
