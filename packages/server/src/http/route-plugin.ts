import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Services } from '../services.ts'

/** What every route plugin is registered with. */
export interface RouteOptions {
  services: Services
}

/**
 * A named route plugin: registered with the server's services, refused at start when a plugin
 * it depends on (by name) was not registered first, and encapsulated, so the hooks and
 * decorations it adds stay with its own routes.
 *
 * @example
 * export const eventRoutes = routePlugin('portico-events', ['portico-current-user'], async (app, services) => {
 *   app.get('/api/events/stats', ...)
 * })
 */
export function routePlugin(
  name: string,
  dependencies: string[],
  routes: (app: FastifyInstance, services: Services) => Promise<void>,
) {
  return fp<RouteOptions>(async (app, { services }) => routes(app, services), {
    name,
    dependencies,
    encapsulate: true,
  })
}
