import { consoleRoutes as c } from '@portico/sdk/wire'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { guardConsoleRoutes } from './guard.ts'
import { errorBodySchema, notFound } from '../errors.ts'
import { routePlugin } from '../http/route-plugin.ts'
import { WatchRefusal } from '../sync/watch-params.ts'
import { consoleAccess } from '../auth/team.ts'
import { consoleWeb3ApiRoutes } from './web3api-routes.ts'
import { consoleErrors, tags } from './schemas.ts'
import type { Sync } from '../sync/definition.ts'
import type { SyncStatus } from '../sync/syncer.ts'
import type { Watches } from '../sync/watches.ts'
import type { SyncProgress } from '../sync/store.ts'
import type { ConsoleNeeds } from './needs.ts'
import type { Web3Api } from '../web3api/service.ts'

/** The services these routes use. */
export type ConsoleSyncNeeds = ConsoleNeeds & {
  web3api: Web3Api
  processId: string
  syncs: Sync[]
  watches: Watches
  syncProgress: SyncProgress
  syncStatus(): (SyncStatus & { writer: boolean })[]
}

// The console's view of the contract-event syncs: the site's (`defineSync`) and the watches
// made at run time (`watchContractEvent`), with their progress, and removing a watch. Progress
// is this process's when it writes the sync, else what the writing process last committed.

const errors = consoleErrors

export const consoleSyncRoutes = routePlugin(
  'portico-console-syncs',
  ['portico-current-user'],
  async function consoleSyncRoutes(fastify, services: ConsoleSyncNeeds) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
    const requireConsole = consoleAccess(services.config.app)
    guardConsoleRoutes(app, services.config.app)
    await consoleWeb3ApiRoutes(fastify, services)

    app.get(
      '/api/admin/syncs',
      {
        schema: {
          tags,
          summary:
            'Every contract-event sync and watch, with its progress and which process writes it',
          response: { 200: c['GET /api/admin/syncs'].answer, ...errors },
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        const stored = new Map((await services.syncProgress.all()).map((row) => [row.name, row]))
        const watches = new Map(services.watches.list().map((watch) => [watch.syncName, watch]))
        const status = new Map(services.syncStatus().map((s) => [s.name, s]))
        const stopped = services.watches.stoppedSyncNames()
        const results = services.syncs
          .filter((sync) => !stopped.has(sync.name))
          .map((sync) => {
            const live = status.get(sync.name)
            const row = stored.get(sync.name)
            const writer = live?.writer === true
            const head = writer ? live?.head : row?.head?.toString()
            const nextBlock = writer ? live?.nextBlock : row?.nextBlock.toString()
            const watch = watches.get(sync.name)
            return {
              name: sync.name,
              kind: watch ? ('watch' as const) : ('site' as const),
              chainId: sync.chainId,
              className: sync.className,
              addresses: sync.addresses.map((address) => address.toLowerCase()),
              events: sync.events.map((event) => event.name),
              filter: watch?.filter ?? null,
              createdAt: watch?.createdAt ?? null,
              writer: writer ? ('this process' as const) : ('another process' as const),
              mode: writer ? live!.mode : null,
              nextBlock: nextBlock ?? null,
              head: head ?? null,
              blocksLeft:
                head !== undefined && nextBlock !== undefined
                  ? String(maximum(0n, BigInt(head) - BigInt(nextBlock) + 1n))
                  : null,
              eventsPerSecond: writer ? live!.eventsPerSecond : null,
              rows: row?.rows ?? live?.rows ?? 0,
              lastError: writer ? (live!.lastError ?? null) : null,
              updatedAt: row?.updatedAt.toISOString() ?? null,
            }
          })
        return { processId: services.processId, results }
      },
    )

    app.delete(
      '/api/admin/watches/:tableName',
      {
        schema: {
          tags,
          summary: 'Stop a contract-event watch (its rows stay in its class)',
          params: c['DELETE /api/admin/watches/:tableName'].params,
          response: {
            204: c['DELETE /api/admin/watches/:tableName'].answer,
            404: errorBodySchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const { user } = await requireConsole(request, 'write')
        const { tableName } = request.params
        const watch = services.watches.list().find((w) => w.tableName === tableName)
        try {
          await services.watches.unwatch({ tableName })
        } catch (error) {
          if (error instanceof WatchRefusal) throw notFound(error.message)
          throw error
        }
        await services.audit.record({
          actor: user.address,
          action: 'watch.remove',
          target: `watch/${tableName}`,
          before: watch ?? { tableName },
        })
        return reply.status(204).send(null)
      },
    )
  },
)

const maximum = (a: bigint, b: bigint) => (a > b ? a : b)
