import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { getAddress } from 'viem'
import { errorBodySchema } from '../errors.ts'
import { STORED_FILE_NAME } from '../files/store.ts'
import { routePlugin } from '../http/route-plugin.ts'
import { parseWhere } from '../objects/condition.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { LinkedAddresses } from './addresses.ts'

/** The services these routes use. */
export type PublicProfileNeeds = { linkedAddresses: LinkedAddresses; objects: ObjectStore }

// What the public page of a wallet (`/u/<address>`) shows of its user. The profile is the user's
// own `Profile` object, written by the web app and readable by them alone; `public: true` in it
// says they chose to show their display name and avatar. Only those two leave here, and only
// then: the rest of the profile (the birthday) never does. They are shown on the user's primary
// address only: the same name on each of their wallets would tell anyone which wallets belong
// together. Every other address, with an account here or not, answers the address alone, so the
// answer does not tell whether an address has an account.

export const PROFILE_CLASS = 'Profile'

/** Longest display name shown (the web app's form allows 50 characters). */
const DISPLAY_NAME_MAX = 50

export interface PublicProfile {
  /** Checksummed. */
  address: string
  displayName?: string
  /** The avatar's path on this server (`/api/files/…`). */
  avatarUrl?: string
}

/** The public part of the profile of the user whose primary address is `address`. */
export async function publicProfile(
  linkedAddresses: Pick<LinkedAddresses, 'primaryUserOf'>,
  objects: ObjectStore,
  address: string,
): Promise<PublicProfile> {
  const checked = getAddress(address)
  const userId = await linkedAddresses.primaryUserOf(checked)
  if (!userId) return { address: checked }
  // Read as the user themselves: what they can read of their own, under the same access rule.
  const { results } = await objects.query(userId, PROFILE_CLASS, {
    where: parseWhere({ owner: userId }),
    order: '-updatedAt',
    limit: 1,
    skip: 0,
  })
  const data = results[0]?.data
  if (data?.public !== true) return { address: checked }
  const answer: PublicProfile = { address: checked }
  const name = typeof data.displayName === 'string' ? data.displayName.trim() : ''
  // eslint-disable-next-line no-control-regex
  if (name && !/[\u0000-\u001f\u007f]/.test(name))
    answer.displayName = [...name].slice(0, DISPLAY_NAME_MAX).join('')
  // A file of this server only (by its stored name): never a link to anywhere else.
  const avatar = data.avatar as { __type?: unknown; name?: unknown } | null | undefined
  if (
    avatar?.__type === 'File' &&
    typeof avatar.name === 'string' &&
    new RegExp(STORED_FILE_NAME).test(avatar.name)
  )
    answer.avatarUrl = `/api/files/${encodeURIComponent(avatar.name)}`
  return answer
}

const profileSchema = {
  type: 'object',
  properties: {
    address: { type: 'string' },
    displayName: { type: 'string' },
    avatarUrl: { type: 'string' },
  },
  required: ['address'],
  additionalProperties: false,
} as const

/** `GET /api/profiles/:address`: anyone may ask, signed in or not. */
export const publicProfileRoutes = routePlugin(
  'portico-public-profiles',
  [],
  async function publicProfileRoutes(fastify, services: PublicProfileNeeds) {
    const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
    app.get(
      '/api/profiles/:address',
      {
        schema: {
          tags: ['auth'],
          summary:
            "A wallet's public profile: its user's display name and avatar when they made them public, else the address alone",
          params: {
            type: 'object',
            properties: { address: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' } },
            required: ['address'],
          },
          response: { 200: profileSchema, 400: errorBodySchema },
        },
      },
      async (request, reply) => {
        // A choice made public or private shows at the next look, not after a cache's time.
        reply.header('cache-control', 'no-cache')
        return publicProfile(services.linkedAddresses, services.objects, request.params.address)
      },
    )
  },
)
