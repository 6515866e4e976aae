import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { SESSION_COOKIE } from './session-cookie.ts'
import { HttpError } from '../errors.ts'
import type { ServerConfig } from '../config/server.ts'

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses cookie-authenticated requests that change state when a browser says they come from
 * another site (cross-site request forgery). One hook for the whole app, so routes added
 * later (objects, files, batch) are covered without doing anything.
 *
 * A request is "cookie-authenticated" when it carries the session cookie and no valid bearer
 * token (a browser never sends a bearer token on its own; any other `Authorization` header, or a
 * bearer token that is not a live session, leaves the cookie rules in force). Browsers send
 * `Origin` on every cross-origin POST/PUT/DELETE and `Sec-Fetch-Site` on every request; when
 * either, or a `Referer` sent without them, says the request is not from one of the configured
 * origins, it is refused. Clients that send none (curl, servers) are not browsers and cannot be
 * tricked into sending someone's cookie.
 */
export const originGuard = fp(async function originGuard(
  app: FastifyInstance,
  { config }: { config: ServerConfig },
) {
  const allowed = new Set(config.app.publicOrigins)
  // The compatibility mount never reads the cookie (its clients send their session in the body).
  const mount = config.compat.mount
  const underMount = (url: string) =>
    mount !== undefined &&
    (url === mount || url.startsWith(`${mount}/`) || url.startsWith(`${mount}?`))
  app.addHook('onRequest', async (request) => {
    if (safeMethods.has(request.method)) return
    if (underMount(request.url)) return
    if (!carriesSessionCookie(request) && !request.url.startsWith('/api/auth/')) return
    if (await hasValidBearer(request)) return
    const origin = request.headers.origin
    if (typeof origin === 'string' && origin !== '') {
      if (!allowed.has(origin)) throw crossSite(`Origin ${origin.slice(0, 100)} is not this app.`)
      return
    }
    const site = request.headers['sec-fetch-site']
    if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
      throw crossSite(`A ${site} request may not use your session.`)
    }
    const referer = request.headers.referer
    if (typeof referer === 'string' && referer !== '' && !allowed.has(originOf(referer))) {
      throw crossSite('The page that sent it is not this app.')
    }
  })
})

async function hasValidBearer(request: FastifyRequest): Promise<boolean> {
  const header = request.headers.authorization
  if (typeof header !== 'string' || !/^Bearer\s+\S+$/i.test(header)) return false
  return (await request.currentUser())?.via === 'bearer'
}

function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return 'null'
  }
}

function carriesSessionCookie(request: FastifyRequest): boolean {
  const header = request.headers.cookie
  return typeof header === 'string' && header.includes(`${SESSION_COOKIE}=`)
}

const crossSite = (detail: string) =>
  new HttpError(
    403,
    'cross_origin_refused',
    `Refused a cross-site request with your session cookie. ${detail}`,
  )
