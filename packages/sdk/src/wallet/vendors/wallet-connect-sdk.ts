// The WalletConnect SDK behind one dynamic import: the bundler names the chunk after this file
// (walletConnectSdk-*.js), which is how tests see that it loads only when chosen.
export { EthereumProvider } from '@walletconnect/ethereum-provider'
