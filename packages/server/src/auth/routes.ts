import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import type { FastifyReply } from 'fastify'
import type { Hex } from 'viem'
import { consoleRoleOf } from './team.ts'
import type { LinkedAddresses, LinkedAddress } from '../auth/addresses.ts'
import type { SignInNonces } from '../auth/nonces.ts'
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, sessionCookieName } from '../auth/sessions.ts'
import { verifySignInSignature } from '../auth/signature.ts'
import { checkSignInMessage } from '../auth/siwe.ts'
import { linkWallet, unlinkWallet } from '../auth/wallets.ts'
import { forbidden, notFound } from '../errors.ts'
import { authSchemas as s } from './schemas.ts'
import { routePlugin } from '../http/route-plugin.ts'
import type { ServerConfig } from '../config/server.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { Sessions } from './sessions.ts'
import type { SignIns } from './sign-in.ts'
import type { ChainClients } from './signature.ts'

/** The services these routes use. */
export type AuthRouteNeeds = {
  config: ServerConfig
  nonces: SignInNonces
  linkedAddresses: LinkedAddresses
  objects: ObjectStore
  sessions: Sessions
  signIns: SignIns
  chainClients: ChainClients
  /** Cloud code, told of logouts (its `afterLogout` trigger). */
  cloud: { triggers: { afterLogout(user: { id: string }, sessionId: string): Promise<void> } }
}

/** Wallets as `/api` answers them. */
const walletsAnswer = (wallets: LinkedAddress[]) => ({
  wallets: wallets.map((row) => ({
    address: row.address,
    linkedAt: row.linkedAt.toISOString(),
    primary: row.primary,
  })),
})

const addressList = (wallets: LinkedAddress[]) => wallets.map((row) => row.address)

/**
 * The user's console role, when they have one: the web app shows the console and the analytics
 * only to those who may use them (the server still checks every request).
 */
const roleOf = (
  address: string | null,
  config: { adminAddresses: string[]; viewerAddresses: string[] },
) => {
  const role = consoleRoleOf(address, config)
  return role ? { role } : {}
}

/**
 * Sign-in with a wallet (EIP-4361), the session endpoints, and the user's linked wallets.
 * `clientFor` gives the chain connection used to check contract-wallet signatures.
 */
export const authRoutes = routePlugin(
  'portico-auth',
  ['portico-current-user'],
  async function authRoutes(fastify, services: AuthRouteNeeds) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
    const config = services.config.app
    let issued = 0
    const rateLimit = { max: config.authRateLimit, timeWindow: 60_000 }
    const cookieOptions = (secure: boolean) =>
      ({ path: '/', httpOnly: true, sameSite: 'lax', secure }) as const
    // Both names: the origin a browser signed in at is not known here.
    const clearCookie = (reply: FastifyReply) =>
      reply
        .clearCookie(SESSION_COOKIE, cookieOptions(false))
        .clearCookie(SECURE_SESSION_COOKIE, cookieOptions(true))

    app.post('/api/auth/nonce', { schema: s.nonce, config: { rateLimit } }, async () => {
      const nonce = await services.nonces.issue(config.nonceTtlMs)
      // Now and then, forget nonces that expired a day ago (they only explain late rejections).
      if (++issued % 500 === 0) {
        services.nonces
          .prune(new Date(Date.now() - 86_400_000))
          .catch((error: unknown) =>
            app.log.warn({ err: error }, 'pruning old nonces failed; tried again later'),
          )
      }
      const origin = config.publicOrigins[0]!
      return {
        nonce: nonce.nonce,
        serverTime: nonce.issuedAt.toISOString(),
        appId: config.appId,
        domain: new URL(origin).host,
        uri: origin,
        chainIds: config.allowedChainIds,
        expiresAt: nonce.expiresAt.toISOString(),
        statement: `Sign in to ${config.appName}.`,
      }
    })

    app.post(
      '/api/auth/verify',
      { schema: s.verify, config: { rateLimit } },
      async (request, reply) => {
        const { message, signature, mode = 'cookie' } = request.body
        const checked = checkSignInMessage(message, config)
        // Signature first (CPU only), then one statement that consumes the nonce and starts the
        // session atomically. Verification attempts are bounded by the route's rate limit.
        await verifySignInSignature(services.chainClients, {
          message,
          // The schema's pattern admits only 0x-prefixed hex.
          signature: signature as Hex,
          address: checked.address,
          chainId: checked.chainId,
        })
        const { user, session, token } = await services.signIns.complete({
          nonce: checked.nonce,
          address: checked.address,
          chainId: checked.chainId,
          issuedAt: checked.issuedAt,
          skewMs: config.clockSkewMs,
          userAgent: request.headers['user-agent'],
          ttlMs: config.sessionTtlMs,
        })
        const addresses = addressList(await services.linkedAddresses.of(user.id))
        const body = {
          user: { id: user.id, address: user.address, addresses, ...roleOf(user.address, config) },
          session: { id: session.id, expiresAt: session.expiresAt.toISOString() },
        }
        if (mode === 'bearer') return { ...body, token }
        const secure = checked.origin.startsWith('https:')
        reply.setCookie(sessionCookieName(secure), token, {
          ...cookieOptions(secure),
          expires: session.expiresAt,
        })
        return body
      },
    )

    app.get('/api/auth/session', { schema: s.session }, async (request) => {
      const { user, session } = await request.requireUser()
      // A password user of the Parse-compatible API who has no wallet has no Portico profile.
      if (user.address === null)
        throw forbidden(
          'This account signs in with a password on the Parse-compatible API; link a wallet to it to use this API.',
        )
      const addresses = addressList(await services.linkedAddresses.of(user.id))
      // Keep "last seen" roughly current for the sessions list without a write per request.
      if (Date.now() - session.lastSeenAt.getTime() > 60_000) {
        await services.sessions.touch(session.id)
      }
      return {
        user: {
          id: user.id,
          address: user.address,
          addresses,
          ...roleOf(user.address, config),
          firstSignInAt: user.firstSignInAt.toISOString(),
          lastSignInAt: user.lastSignInAt.toISOString(),
        },
        session: {
          id: session.id,
          chainId: session.chainId,
          expiresAt: session.expiresAt.toISOString(),
        },
      }
    })

    app.post('/api/auth/link', { schema: s.link, config: { rateLimit } }, async (request) => {
      const current = await request.requireUser()
      const { message, signature } = request.body
      // Every check of a sign-in, on a message signed by the wallet to link.
      const checked = checkSignInMessage(message, config)
      await verifySignInSignature(services.chainClients, {
        message,
        signature: signature as Hex,
        address: checked.address,
        chainId: checked.chainId,
      })
      const wallets = await linkWallet(services.objects, {
        userId: current.user.id,
        address: checked.address,
        signed: { nonce: checked.nonce, issuedAt: checked.issuedAt, skewMs: config.clockSkewMs },
      })
      return walletsAnswer(wallets)
    })

    app.get('/api/auth/wallets', { schema: s.wallets }, async (request) => {
      const { user } = await request.requireUser()
      return walletsAnswer(await services.linkedAddresses.of(user.id))
    })

    app.delete('/api/auth/wallets/:address', { schema: s.unlink }, async (request) => {
      const { user } = await request.requireUser()
      const wallets = await unlinkWallet(services.objects, user.id, request.params.address)
      // Sessions remembered with the old primary address show the new one from now on.
      if (wallets.find((row) => row.primary)?.address !== user.address)
        await services.sessions.forget({ userId: user.id })
      return walletsAnswer(wallets)
    })

    app.post('/api/auth/logout', { schema: s.logout }, async (request, reply) => {
      const current = await request.currentUser()
      if (current && (await services.sessions.revoke(current.user.id, current.session.id)))
        await services.cloud.triggers.afterLogout(current.user, current.session.id)
      clearCookie(reply)
      return reply.status(204).send(null)
    })

    app.get('/api/auth/sessions', { schema: s.sessions }, async (request) => {
      const current = await request.requireUser()
      const rows = await services.sessions.listLive(current.user.id)
      return {
        sessions: rows.map((row) => ({
          id: row.id,
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          expiresAt: row.expiresAt.toISOString(),
          userAgent: row.userAgent,
          chainId: row.chainId,
          current: row.id === current.session.id,
        })),
      }
    })

    app.delete('/api/auth/sessions/:id', { schema: s.revoke }, async (request, reply) => {
      const current = await request.requireUser()
      const revoked = await services.sessions.revoke(current.user.id, request.params.id)
      if (!revoked) throw notFound('You have no active session with this id.', 'session_not_found')
      if (request.params.id === current.session.id && current.via === 'cookie') clearCookie(reply)
      return reply.status(204).send(null)
    })
  },
)
