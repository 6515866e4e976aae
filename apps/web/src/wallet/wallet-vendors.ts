// The vendor connectors this app offers besides browser wallets. Imported with the wallet code
// (see `vendors` in config.ts), not with the page; each vendor's SDK loads only when chosen.
export { walletConnect } from '@portico/sdk/wallet/walletconnect'
export { magicLink } from '@portico/sdk/wallet/magic'
export { web3Auth } from '@portico/sdk/wallet/web3auth'
