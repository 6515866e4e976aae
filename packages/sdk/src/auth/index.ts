// Entry point `@portico/sdk/auth`: sign-in with a wallet (EIP-4361) and the session calls.
export { getNonce, type GetNonceReturnType, type SignInNonce } from './nonce.ts'
export { createSignInMessage, type CreateSignInMessageParameters } from './message.ts'
export {
  verifySignIn,
  type SignInResult,
  type VerifySignInParameters,
  type VerifySignInReturnType,
} from './verify.ts'
export {
  getSession,
  listSessions,
  revokeSession,
  signOut,
  type CurrentSession,
  type GetSessionReturnType,
  type SessionInfo,
} from './session.ts'
export {
  linkedWallets,
  linkWallet,
  unlinkWallet,
  type LinkedWallet,
  type LinkWalletParameters,
} from './wallets.ts'
