import type { FastifyInstance } from 'fastify'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { consoleRoutes as c } from '@portico/sdk/wire'
import type { ServerConfig } from '../config/server.ts'
import type { Web3Api } from '../web3api/service.ts'
import { ADDRESS_ENDPOINTS } from '../web3api/address-reads.ts'
import { consoleAccess } from '../auth/team.ts'
import { consoleErrors, tags } from './schemas.ts'

// The console's view of Moralis v1's Web3 API, beside the syncs (sync-routes.ts registers it):
// which functions this process answered, how often, how many of those were errors, and how long
// they took; and whether the address index that the wallet-wide functions read is there.

export async function consoleWeb3ApiRoutes(
  fastify: FastifyInstance,
  services: { config: ServerConfig; processId: string; web3api: Web3Api },
) {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
  const requireConsole = consoleAccess(services.config.app)
  app.get(
    '/api/admin/web3api',
    {
      schema: {
        tags,
        summary: 'Web3 API calls answered by this process, per function, and the address index',
        response: { 200: c['GET /api/admin/web3api'].answer, ...consoleErrors },
      },
    },
    async (request) => {
      await requireConsole(request, 'read')
      const { web3api } = services
      return {
        processId: services.processId,
        since: web3api.stats.since.toISOString(),
        results: web3api.stats.list().map((stats) => ({
          ...stats,
          averageSeconds: stats.calls ? stats.totalSeconds / stats.calls : 0,
        })),
        addressIndex: web3api.addressIndexed(),
        addressEndpoints: [...ADDRESS_ENDPOINTS],
      }
    },
  )
}
