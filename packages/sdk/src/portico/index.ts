// Entry point `@portico/sdk/portico`: one client object for an app (wallet, sign-in state,
// sessions, node reads) that UI bindings subscribe to.
export {
  createPortico,
  type Portico,
  type PorticoConfig,
  type SignInParameters,
} from './create-portico.ts'
export {
  authFlags,
  authReducer,
  initialAuthState,
  type AuthEvent,
  type AuthState,
  type AuthStatus,
  type AuthUser,
  type SessionLostReason,
} from './auth-machine.ts'
export type { SignInStep } from './sign-in-flow.ts'
export type { SessionInfo } from '../auth/session.ts'
export type { LinkedWallet, LinkWalletParameters } from '../auth/wallets.ts'
export { createStore, type Store } from '../store/store.ts'
