// The Web3Auth modal SDK behind one dynamic import (chunk web3AuthSdk-*.js), loaded only when
// chosen and only with a client id.
export { Web3Auth } from '@web3auth/modal'
