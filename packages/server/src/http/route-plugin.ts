import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/** What a route plugin is registered with: the services it uses (its own `Needs`). */
export interface RouteOptions<Needs> {
  services: Needs
}

/**
 * A named route plugin: registered with the services it names in `Needs` (the server passes its
 * services object, which has them all; a plugin sees only what it declared), refused at start
 * when a plugin it depends on (by name) was not registered first, and encapsulated, so the hooks
 * and decorations it adds stay with its own routes.
 *
 * @example
 * export const eventRoutes = routePlugin(
 *   'portico-events',
 *   ['portico-current-user'],
 *   async (app, services: { config: ServerConfig; events: Events }) => {
 *     app.get('/api/events/stats', ...)
 *   },
 * )
 */
export function routePlugin<Needs>(
  name: string,
  dependencies: string[],
  routes: (app: FastifyInstance, services: Needs) => Promise<void>,
) {
  return fp<RouteOptions<Needs>>(async (app, { services }) => routes(app, services), {
    name,
    dependencies,
    encapsulate: true,
  })
}
