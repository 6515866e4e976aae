import type { FastifyInstance } from 'fastify'
import { pendingMigrations, pingDatabase } from '../db/client.ts'
import { serverVersion } from '../version.ts'

const healthSchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded'] },
    version: { type: 'string' },
    database: { type: 'string', enum: ['pglite', 'postgres'] },
  },
  required: ['status', 'version', 'database'],
} as const

const readySchema = {
  type: 'object',
  properties: {
    ready: { type: 'boolean' },
    database: { type: 'string', enum: ['reachable', 'unreachable'] },
    pendingMigrations: { type: ['integer', 'null'] },
  },
  required: ['ready', 'database', 'pendingMigrations'],
} as const

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['meta'],
        summary: 'Server status, version and database kind',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const ok = await pingDatabase(app.db)
      return reply
        .status(ok ? 200 : 503)
        .send({ status: ok ? 'ok' : 'degraded', version: serverVersion, database: app.dbKind })
    },
  )

  // Readiness, for a proxy or an orchestrator deciding whether to send traffic here: the
  // database answers and has every migration this build ships.
  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['meta'],
        summary: 'Ready for traffic: the database answers and is fully migrated (else 503)',
        response: { 200: readySchema, 503: readySchema },
      },
    },
    async (_request, reply) => {
      const pending = await pendingMigrations(app.db)
      const ready = pending === 0
      return reply.status(ready ? 200 : 503).send({
        ready,
        database: pending === undefined ? 'unreachable' : 'reachable',
        pendingMigrations: pending ?? null,
      })
    },
  )
}
