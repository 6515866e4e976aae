// The session cookie: its names and how a token is read from a Cookie header. Sessions
// themselves are auth's (auth/sessions.ts); the origin guard only needs to see the cookie.

/** Name of the HttpOnly session cookie the browser carries on an http origin (development). */
export const SESSION_COOKIE = 'portico_session'
/**
 * Its name on an https origin: browsers accept a `__Host-` cookie only from the exact host, with
 * Secure, Path=/ and no Domain, so a sibling subdomain cannot plant one.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`

export const sessionCookieName = (secure: boolean) =>
  secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE

/**
 * The session token from a Cookie header. The `__Host-` cookie comes first; the plain one counts
 * only where an http origin is configured. A name sent twice gives nothing: one of the two was
 * planted (e.g. with a narrower Path, which browsers send first) and neither can be trusted.
 */
export function sessionTokenOf(
  header: string | undefined,
  plainAllowed: boolean,
): string | undefined {
  if (!header) return undefined
  const values = new Map<string, string[]>()
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at < 0) continue
    const name = part.slice(0, at).trim()
    if (name !== SESSION_COOKIE && name !== SECURE_SESSION_COOKIE) continue
    values.set(name, [...(values.get(name) ?? []), part.slice(at + 1).trim()])
  }
  const secure = values.get(SECURE_SESSION_COOKIE)
  if (secure) return secure.length === 1 ? secure[0] : undefined
  const plain = values.get(SESSION_COOKIE)
  return plainAllowed && plain?.length === 1 ? plain[0] : undefined
}
