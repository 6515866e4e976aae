import {
  ADDRESS_INDEX_PAGE,
  consoleRoutes as c,
  type ConsoleIndexedAddress,
} from '@portico/sdk/wire'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { guardConsoleRoutes } from './guard.ts'
import { consoleAccess } from '../auth/team.ts'
import type { ConsoleNeeds } from './needs.ts'
import type { AddressIndex } from '../addresses/service.ts'
import { consoleErrors, tags } from './schemas.ts'
import { routePlugin } from '../http/route-plugin.ts'

// The console's view of the address index: each chain's progress, and each indexed address with
// why it is indexed and how far its history is read (paged by address).

const route = c['GET /api/admin/address-index']

/** The health output's part for the address index (present when a chain is indexed). */
export const addressIndexHealthSchema = {
  type: 'array',
  description:
    'The address index per chain: where it stands (present when ADDRESS_INDEX_CHAINS is set)',
  items: route.answer.properties.chains.items,
} as const

export const consoleAddressRoutes = routePlugin(
  'portico-console-addresses',
  ['portico-current-user'],
  async function consoleAddressRoutes(
    fastify,
    services: ConsoleNeeds & { addressIndex: AddressIndex },
  ) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
    const requireConsole = consoleAccess(services.config.app)
    guardConsoleRoutes(app, services.config.app)

    app.get(
      '/api/admin/address-index',
      {
        schema: {
          tags,
          summary: `The address index: each chain’s progress, and the indexed addresses (${ADDRESS_INDEX_PAGE} a page, after \`after\`) with their next block`,
          querystring: route.querystring,
          response: { 200: route.answer, ...consoleErrors },
        },
      },
      async (request) => {
        await requireConsole(request, 'read')
        const chains = await services.addressIndex.status()
        const chainId =
          request.query.chainId === undefined ? chains[0]?.chainId : Number(request.query.chainId)
        const addresses =
          chainId === undefined
            ? []
            : await services.addressIndex.page(chainId, request.query.after)
        const head = chains.find((chain) => chain.chainId === chainId)?.head
        return {
          chains: chains.map((chain) => ({
            ...chain,
            head: chain.head ?? null,
            lastError: chain.lastError ?? null,
          })),
          addresses: addresses.map((row) => ({
            chainId: row.chainId,
            address: row.address,
            // The column is text; the indexer writes only these.
            source: row.source as ConsoleIndexedAddress['source'],
            nextBlock: row.nextBlock.toString(),
            status:
              head !== undefined && row.nextBlock > BigInt(head)
                ? ('SYNCED' as const)
                : ('SYNCING' as const),
            createdAt: row.createdAt.toISOString(),
          })),
        }
      },
    )
  },
)
