import { serverVersion } from '../version.ts'
import { routePlugin } from '../http/route-plugin.ts'
import { addressIndexHealthSchema } from '../admin/address-routes.ts'
import type { ServerConfig } from '../config/server.ts'
import type { DatabaseHealth, DatabaseKind } from '../db/client.ts'
import type { FileStore } from '../files/store.ts'
import type { SyncStatus } from '../sync/syncer.ts'
import type { AddressIndex } from '../addresses/service.ts'

/** The services these routes use. */
export type HealthNeeds = {
  config: ServerConfig
  databaseHealth: DatabaseHealth
  database: { kind: DatabaseKind }
  files: FileStore
  syncs: unknown[]
  addressIndex: Pick<AddressIndex, 'chainIds' | 'status'>
  syncStatus(): (SyncStatus & { writer: boolean })[]
}

const healthSchema = {
  type: 'object',
  properties: {
    status: {
      type: 'string',
      enum: ['ok', 'degraded', 'starting'],
      description:
        'starting: the process has opened its port and is still opening its database and routes (every other route answers 503 server_starting meanwhile)',
    },
    version: { type: 'string' },
    database: { type: 'string', enum: ['pglite', 'postgres'] },
    syncs: {
      type: 'array',
      description: 'Contract-event syncs: where each stands (present when the site declares any)',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          chainId: { type: 'integer' },
          className: { type: 'string' },
          mode: { type: 'string', enum: ['starting', 'backfill', 'following'] },
          writer: { type: 'boolean', description: 'This process runs it (else another does)' },
          nextBlock: { type: 'string' },
          head: { type: ['string', 'null'] },
          blocksLeft: { type: ['string', 'null'] },
          eventsPerSecond: { type: 'number' },
          rows: { type: 'integer', description: 'Rows this process wrote since it started' },
          range: { type: 'integer', description: 'Blocks per eth_getLogs now' },
          lastError: { type: ['string', 'null'] },
        },
        required: ['name', 'chainId', 'className', 'mode', 'writer', 'nextBlock'],
      },
    },
    addressIndex: addressIndexHealthSchema,
  },
  required: ['status', 'version', 'database'],
} as const

const readySchema = {
  type: 'object',
  properties: {
    ready: { type: 'boolean' },
    database: { type: 'string', enum: ['reachable', 'unreachable'] },
    pendingMigrations: { type: ['integer', 'null'] },
    files: {
      type: 'string',
      enum: ['database', 'reachable', 'unreachable'],
      description: 'Where uploads go: the database, or an S3-compatible store that answers or not',
    },
  },
  required: ['ready', 'database', 'pendingMigrations', 'files'],
} as const

export const healthRoutes = routePlugin(
  'portico-health',
  [],
  async function healthRoutes(app, services: HealthNeeds) {
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
        const ok = await services.databaseHealth.ping()
        return reply.status(ok ? 200 : 503).send({
          status: ok ? 'ok' : 'degraded',
          version: serverVersion,
          database: services.database.kind,
          ...(services.syncs.length
            ? {
                syncs: services.syncStatus().map((s) => ({
                  ...s,
                  head: s.head ?? null,
                  blocksLeft: s.blocksLeft ?? null,
                  lastError: s.lastError ?? null,
                })),
              }
            : {}),
          ...(services.addressIndex.chainIds.length
            ? {
                addressIndex: (await services.addressIndex.status()).map((s) => ({
                  ...s,
                  head: s.head ?? null,
                  lastError: s.lastError ?? null,
                })),
              }
            : {}),
        })
      },
    )

    // Readiness, for a proxy or an orchestrator deciding whether to send traffic here: the
    // database answers and has every migration this build ships.
    app.get(
      '/api/ready',
      {
        schema: {
          tags: ['meta'],
          summary:
            'Ready for traffic: the database answers and is fully migrated, and the file store answers (else 503)',
          response: { 200: readySchema, 503: readySchema },
        },
      },
      async (_request, reply) => {
        const [pending, files] = await Promise.all([
          services.databaseHealth.pendingMigrations(),
          services.config.files.storage === 'database'
            ? ('database' as const)
            : services.files.check().then(
                () => 'reachable' as const,
                () => 'unreachable' as const,
              ),
        ])
        const ready = pending === 0 && files !== 'unreachable'
        return reply.status(ready ? 200 : 503).send({
          ready,
          database: pending === undefined ? 'unreachable' : 'reachable',
          pendingMigrations: pending ?? null,
          files,
        })
      },
    )
  },
)
