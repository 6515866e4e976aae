import type { FastifyRequest } from 'fastify'
import type { CurrentUser } from './sessions.ts'
import { HttpError, forbidden } from '../errors.ts'

// Who may use the console: ADMIN_ADDRESSES change things, VIEWER_ADDRESSES look. Every refusal
// comes from the server, whatever the page shows; deleting and revoking also want a sign-in
// from the last FRESH_SIGN_IN_MS, so a session left open on a shared machine cannot do them.

export type ConsoleRole = 'admin' | 'viewer'

/** How recent a sign-in must be for deletes and revocations. */
export const FRESH_SIGN_IN_MS = 15 * 60_000

/** What a console request does: look, change, or delete/revoke. */
export type ConsoleNeed = 'read' | 'write' | 'destructive'

export function consoleRoleOf(
  address: string | null,
  config: { adminAddresses: string[]; viewerAddresses: string[] },
): ConsoleRole | undefined {
  // A password user without a wallet is never on the team: the team is named by address.
  if (address === null) return undefined
  if (config.adminAddresses.includes(address)) return 'admin'
  if (config.viewerAddresses.includes(address)) return 'viewer'
  return undefined
}

/** A signed-in console user: always one with a wallet, since the team is named by address. */
export type ConsoleUser = CurrentUser & { role: ConsoleRole; user: { address: string } }

/**
 * The console's access check for these settings: `requireConsole(request, need)` gives the
 * signed-in console user, or the refusal: 401, 403 `admin_only`, `read_only` or
 * `fresh_sign_in_required`.
 */
export function consoleAccess(config: { adminAddresses: string[]; viewerAddresses: string[] }) {
  return (request: FastifyRequest, need: ConsoleNeed) => requireConsole(request, need, config)
}

async function requireConsole(
  request: FastifyRequest,
  need: ConsoleNeed,
  config: { adminAddresses: string[]; viewerAddresses: string[] },
): Promise<ConsoleUser> {
  const current = await request.requireUser()
  const address = current.user.address
  const role = consoleRoleOf(address, config)
  if (!role || address === null)
    throw forbidden(
      'The console is for the site team: addresses in ADMIN_ADDRESSES (or VIEWER_ADDRESSES, to look only).',
      'admin_only',
    )
  if (need !== 'read' && role !== 'admin')
    throw forbidden('Viewers can look but not change anything: ask an admin.', 'read_only')
  if (need === 'destructive' && Date.now() - current.session.createdAt.getTime() > FRESH_SIGN_IN_MS)
    throw new HttpError(
      403,
      'fresh_sign_in_required',
      'Sign in again to delete or revoke: these need a sign-in from the last 15 minutes.',
    )
  return { ...current, user: { ...current.user, address }, role }
}
