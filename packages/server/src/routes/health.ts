import type { FastifyInstance } from 'fastify'
import { pingDatabase } from '../db/client.ts'
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
}
