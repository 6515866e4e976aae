import type { FastifyInstance } from 'fastify'
import { consoleAccess } from '../auth/team.ts'

/**
 * Decides access before anything else on every route of a console plugin: a visitor is told
 * 401 and a stranger or a viewer writing 403 before the body is even read, so a refusal never
 * hides behind a validation error (and says nothing about what a valid body looks like).
 * Handlers still ask for their own need; a delete's fresh sign-in is checked there.
 */
export function guardConsoleRoutes(
  app: FastifyInstance,
  config: { adminAddresses: string[]; viewerAddresses: string[] },
): void {
  const requireConsole = consoleAccess(config)
  app.addHook('onRequest', async (request) => {
    const method = request.method
    await requireConsole(request, method === 'GET' || method === 'HEAD' ? 'read' : 'write')
  })
}
