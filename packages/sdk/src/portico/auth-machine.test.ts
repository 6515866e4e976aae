import { describe, expect, it } from 'vitest'
import {
  authFlags,
  authReducer,
  initialAuthState,
  type AuthEvent,
  type AuthState,
  type AuthStatus,
  type AuthUser,
} from './auth-machine.ts'

const user: AuthUser = { id: 'u1', address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }
const failure = new Error('boom')
const second = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const states: Record<AuthStatus, AuthState> = {
  undefined: { status: 'undefined' },
  unauthenticated: { status: 'unauthenticated' },
  authenticating: { status: 'authenticating' },
  authenticated: { status: 'authenticated', user },
  logging_out: { status: 'logging_out', user },
  error: { status: 'error', error: failure },
}

const events: Record<AuthEvent['type'], AuthEvent> = {
  SESSION_RESTORED: { type: 'SESSION_RESTORED', user },
  NO_SESSION: { type: 'NO_SESSION' },
  SIGN_IN: { type: 'SIGN_IN' },
  SIGN_IN_SUCCEEDED: { type: 'SIGN_IN_SUCCEEDED', user },
  SIGN_IN_FAILED: { type: 'SIGN_IN_FAILED', error: failure },
  DISMISS: { type: 'DISMISS' },
  SIGN_OUT: { type: 'SIGN_OUT' },
  SIGNED_OUT: { type: 'SIGNED_OUT' },
  SESSION_LOST: { type: 'SESSION_LOST', reason: 'account_changed' },
  WALLETS_CHANGED: { type: 'WALLETS_CHANGED', address: second, addresses: [second] },
}

// Every allowed transition of the state machine (docs/architecture.md); every other (state, event) pair must leave
// the state untouched. The table below is checked against all 6 × 10 combinations.
const allowed: Partial<Record<AuthStatus, Partial<Record<AuthEvent['type'], AuthState>>>> = {
  undefined: {
    SESSION_RESTORED: { status: 'authenticated', user },
    NO_SESSION: { status: 'unauthenticated' },
  },
  unauthenticated: { SIGN_IN: { status: 'authenticating' } },
  authenticating: {
    SIGN_IN_SUCCEEDED: { status: 'authenticated', user },
    SIGN_IN_FAILED: { status: 'error', error: failure },
  },
  error: { SIGN_IN: { status: 'authenticating' }, DISMISS: { status: 'unauthenticated' } },
  authenticated: {
    SIGN_OUT: { status: 'logging_out', user },
    SESSION_LOST: { status: 'unauthenticated', reason: 'account_changed' },
    // A wallet linked or unlinked: still signed in, with the addresses now.
    WALLETS_CHANGED: {
      status: 'authenticated',
      user: { ...user, address: second, addresses: [second] },
    },
  },
  logging_out: { SIGNED_OUT: { status: 'unauthenticated' } },
}

const pairs = Object.keys(states).flatMap((status) =>
  Object.keys(events).map((type) => [status as AuthStatus, type as AuthEvent['type']] as const),
)

describe('authReducer', () => {
  it('starts in the spec state "undefined"', () => {
    expect(initialAuthState).toEqual({ status: 'undefined' })
  })

  it.each(pairs)('%s + %s', (status, type) => {
    const before = states[status]
    const after = authReducer(before, events[type])
    const expected = allowed[status]?.[type]
    if (expected) expect(after).toEqual(expected)
    else expect(after).toBe(before)
  })

  it('has exactly 11 transitions', () => {
    const count = pairs.filter(([s, t]) => authReducer(states[s], events[t]) !== states[s])
    expect(count).toHaveLength(11)
  })

  it('reports a failed server sign-out but still ends unauthenticated', () => {
    const offline = new Error('offline')
    expect(authReducer(states.logging_out, { type: 'SIGNED_OUT', error: offline })).toEqual({
      status: 'unauthenticated',
      error: offline,
    })
  })

  it.each(['session_gone', 'account_changed', 'chain_changed', 'wallet_disconnected'] as const)(
    'an authenticated session lost by %s becomes unauthenticated with the reason',
    (reason) => {
      expect(authReducer(states.authenticated, { type: 'SESSION_LOST', reason })).toEqual({
        status: 'unauthenticated',
        reason,
      })
    },
  )

  it('walks the whole life cycle: restore → sign out → sign in fails → retry → sign in', () => {
    const trail: AuthStatus[] = []
    let state = initialAuthState
    for (const event of [
      events.SESSION_RESTORED,
      events.SIGN_OUT,
      events.SIGNED_OUT,
      events.SIGN_IN,
      events.SIGN_IN_FAILED,
      events.SIGN_IN,
      events.SIGN_IN_SUCCEEDED,
    ]) {
      state = authReducer(state, event)
      trail.push(state.status)
    }
    expect(trail).toEqual([
      'authenticated',
      'logging_out',
      'unauthenticated',
      'authenticating',
      'error',
      'authenticating',
      'authenticated',
    ])
  })
})

describe('authFlags', () => {
  it.each(Object.values(states))('exactly one flag is true for $status', (state) => {
    const flags = authFlags(state)
    expect(Object.values(flags).filter(Boolean)).toHaveLength(1)
  })
})
