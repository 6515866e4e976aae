import type { FastifyInstance } from 'fastify'
import { generatePrivateKey, privateKeyToAccount, type LocalAccount } from 'viem/accounts'
import { createSiweMessage, type SiweMessage } from 'viem/siwe'
import type { SignInNonce } from '../../sdk/src/auth/nonce.ts'

/** The nonce answer as the SDK types it: tests sign what the SDK would sign. */
export type NonceAnswer = SignInNonce

type InjectResponse = Awaited<ReturnType<FastifyInstance['inject']>>

export const newAccount = (): LocalAccount => privateKeyToAccount(generatePrivateKey())

export async function getNonce(app: FastifyInstance): Promise<NonceAnswer> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/nonce', payload: {} })
  if (response.statusCode !== 200) throw new Error(`nonce: ${response.body}`)
  return response.json()
}

/** The message the SDK would build from a nonce answer, with `overrides` applied. */
export function messageFor(
  nonce: NonceAnswer,
  address: `0x${string}`,
  overrides: Partial<SiweMessage> = {},
): string {
  return createSiweMessage({
    domain: nonce.domain,
    address,
    statement: nonce.statement,
    uri: nonce.uri,
    version: '1',
    chainId: nonce.chainIds[0]!,
    nonce: nonce.nonce,
    issuedAt: new Date(nonce.serverTime),
    expirationTime: new Date(nonce.expiresAt),
    requestId: nonce.appId,
    ...overrides,
  })
}

export interface SignInOptions {
  account?: LocalAccount
  overrides?: Partial<SiweMessage>
  /** Rewrites the message after it is built (e.g. an unreadable date), before signing. */
  edit?: (message: string) => string
  mode?: 'cookie' | 'bearer'
  headers?: Record<string, string>
}

/** Runs the whole sign-in with a local key, like the SDK does; returns the verify answer. */
export async function signIn(
  app: FastifyInstance,
  options: SignInOptions = {},
): Promise<{ response: InjectResponse; message: string; signature: `0x${string}` }> {
  const account = options.account ?? newAccount()
  const nonce = await getNonce(app)
  let message = messageFor(nonce, account.address, options.overrides)
  if (options.edit) message = options.edit(message)
  const signature = await account.signMessage({ message })
  const response = await verify(app, { message, signature, mode: options.mode }, options.headers)
  return { response, message, signature }
}

/** `POST /api/auth/verify` with a message and signature as given (valid or not). */
export function verify(
  app: FastifyInstance,
  body: { message: string; signature: string; mode?: 'cookie' | 'bearer' | undefined },
  headers?: Record<string, string>,
): Promise<InjectResponse> {
  const payload = {
    message: body.message,
    signature: body.signature,
    ...(body.mode ? { mode: body.mode } : {}),
  }
  return app.inject({ method: 'POST', url: '/api/auth/verify', payload, headers })
}
