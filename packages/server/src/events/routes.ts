import { consoleRoleOf } from '../auth/team.ts'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import type { FastifyRequest } from 'fastify'

import { bucketStart, maxBuckets } from '../events/stats.ts'
import { createVisitorHasher } from '../events/visitor.ts'
import { badRequest, forbidden } from '../errors.ts'
import { eventSchemas } from './schemas.ts'
import { routePlugin } from '../http/route-plugin.ts'
import type { ServerConfig } from '../config/server.ts'
import type { Events } from './service.ts'

/** The services these routes use. */
export type EventRouteNeeds = { config: ServerConfig; events: Events }

/** Largest `options` object accepted, as JSON text. */
export const maxOptionsBytes = 4096

/** First-party event tracking: `POST /api/events` and admin statistics. */
export const eventRoutes = routePlugin(
  'portico-events',
  ['portico-current-user'],
  async function eventRoutes(fastify, services: EventRouteNeeds) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
    const config = services.config.app
    const writer = services.events.createWriter()
    // Answers already sent are durable; wait for the ones in flight before the database closes.
    app.addHook('onClose', async () => writer.drain())
    const visitorOf = createVisitorHasher(
      config.visitorSecret ?? (await services.events.visitorSecret()),
    )

    app.post(
      '/api/events',
      {
        schema: eventSchemas.track,
        bodyLimit: 16 * 1024,
        config: { rateLimit: { max: config.eventsRateLimit, timeWindow: 60_000 } },
      },
      async (request, reply) => {
        const { subdomain, event, options = {} } = request.body
        if (JSON.stringify(options).length > maxOptionsBytes) {
          throw badRequest(
            `"options" may be at most ${maxOptionsBytes} bytes of JSON.`,
            'event_options_too_large',
          )
        }
        const hasCredentials = Boolean(request.headers.authorization || request.headers.cookie)
        const user = hasCredentials ? await request.currentUser() : null
        await writer.write({
          subdomain: subdomain.toLowerCase(),
          event,
          options,
          visitor: visitorOf(request.ip, request.headers['user-agent']),
          userId: user?.user.id ?? null,
        })
        return reply.status(202).send({ ok: true })
      },
    )

    /** The team's statistics only; the range asked, checked (30 days to now by default). */
    const teamRange = async (
      request: FastifyRequest,
      q: { from?: string; to?: string; bucket?: 'hour' | 'day' },
    ) => {
      const { user } = await request.requireUser()
      if (!consoleRoleOf(user.address, config)) {
        throw forbidden(
          'Event statistics are for the site team (ADMIN_ADDRESSES, or VIEWER_ADDRESSES to look only).',
          'admin_only',
        )
      }
      const bucket = q.bucket ?? 'day'
      const to = q.to ? new Date(q.to) : new Date()
      const from = q.from ? new Date(q.from) : new Date(to.getTime() - 30 * 86_400_000)
      if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) {
        throw badRequest('"from" and "to" must be ISO dates.', 'invalid_range')
      }
      if (from >= to) throw badRequest('"from" must be before "to".', 'invalid_range')
      const bucketsNeeded =
        (to.getTime() - bucketStart(from, bucket).getTime()) /
        (bucket === 'hour' ? 3_600_000 : 86_400_000)
      if (bucketsNeeded > maxBuckets) {
        throw badRequest(
          `The range holds more than ${maxBuckets} ${bucket}s: narrow it or use bigger buckets.`,
          'invalid_range',
        )
      }
      return { from, to, bucket }
    }

    app.get('/api/events/stats', { schema: eventSchemas.stats }, async (request) => {
      const q = request.query
      const { from, to, bucket } = await teamRange(request, q)
      return services.events.stats({ from, to, bucket, subdomain: q.subdomain, event: q.event })
    })

    app.get('/api/events/audience', { schema: eventSchemas.audience }, async (request) => {
      const q = request.query
      const { from, to, bucket } = await teamRange(request, q)
      return services.events.audience({ from, to, bucket, subdomain: q.subdomain })
    })
  },
)
