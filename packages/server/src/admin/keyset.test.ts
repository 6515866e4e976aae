import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp, testConfig } from '../../test/helpers.ts'
import { keysetOrder } from './keyset.ts'

const ADMIN = getAddress(`0x${'a3'.repeat(20)}`)
const COUNT = 130
const PAGE = 20

describe('keysetOrder', () => {
  it('adds the store’s tie-breaks and refuses document fields', () => {
    expect(keysetOrder('-createdAt')).toEqual([
      { key: 'createdAt', descending: true },
      { key: 'objectId', descending: true },
    ])
    expect(keysetOrder('-updatedAt')).toEqual([
      { key: 'updatedAt', descending: true },
      { key: 'createdAt', descending: false },
      { key: 'objectId', descending: false },
    ])
    expect(keysetOrder('objectId')).toEqual([{ key: 'objectId', descending: false }])
    expect(keysetOrder('-score')).toBeUndefined()
    expect(keysetOrder('createdAt,title')).toBeUndefined()
    expect(keysetOrder(undefined)).toBeUndefined()
  })
})

describe.each(databaseKinds())('console pages after the last object shown on %s', (kind) => {
  let app: FastifyInstance
  let admin: Record<string, string>
  beforeAll(async () => {
    const base = testConfig()
    ;({ app } = await testApp(kind, { app: { ...base.app, adminAddresses: [ADMIN] } }))
    admin = (await signedIn(app, ADMIN)).headers
    const owner = (await signedIn(app)).user.id
    // Ten objects to each millisecond, as an import or a sync writes them: the id decides ties.
    const start = Date.parse('2026-01-01T00:00:00.000Z')
    await app.services.objects.insertAbsent(
      Array.from({ length: COUNT }, (_, i) => {
        const at = new Date(start + Math.floor(i / 10))
        return {
          className: 'Row',
          id: `row${String((i * 37) % COUNT).padStart(4, '0')}`,
          ownerId: owner,
          acl: { [owner]: { read: true, write: true } },
          data: { n: i, even: i % 2 === 0 },
          createdAt: at,
          updatedAt: new Date(start + 1000 - Math.floor(i / 7)),
        }
      }),
    )
  })

  const get = async (query: Record<string, string>) => {
    const answer = await app.inject({
      method: 'GET',
      url: `/api/admin/classes/Row?${new URLSearchParams(query)}`,
      headers: admin,
    })
    return { status: answer.statusCode, body: answer.json() }
  }

  /** Every page from the first, each after the last; the ids in the order read. */
  async function walk(query: Record<string, string>) {
    const ids: string[] = []
    let after: string | undefined
    for (let pages = 0; pages < 50; pages++) {
      const { status, body } = await get({
        ...query,
        limit: String(PAGE),
        ...(after ? { after } : {}),
      })
      expect(status, JSON.stringify(body)).toBe(200)
      ids.push(...body.results.map((o: { objectId: string }) => o.objectId))
      after = body.next
      if (!after) return ids
    }
    throw new Error('pages never ended')
  }

  /** The same objects read in one page (skip: the reference). */
  const whole = async (query: Record<string, string>) =>
    (await get({ ...query, limit: '1000' })).body.results.map(
      (o: { objectId: string }) => o.objectId,
    )

  it.each(['-createdAt', 'createdAt', '-updatedAt', 'updatedAt', 'objectId', '-objectId'])(
    'reads every object once, in order, by %s',
    async (order) => {
      const ids = await walk({ order })
      expect(ids).toHaveLength(COUNT)
      expect(ids).toEqual(await whole({ order }))
    },
  )

  it('keeps the filter on every page, the sender’s own $and included', async () => {
    const where = JSON.stringify({ $and: [{ even: true }], n: { $gte: 10 } })
    const ids = await walk({ order: '-createdAt', where })
    expect(ids).toHaveLength(60)
    expect(ids).toEqual(await whole({ order: '-createdAt', where }))
  })

  it('gives no next page for an order by a document field, and refuses "after" with one', async () => {
    const first = await get({ order: '-n', limit: String(PAGE) })
    expect(first.body.next).toBeUndefined()
    const end = JSON.stringify({
      objectId: 'row0001',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    })
    const refused = await get({ order: '-n', after: end })
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toMatch(/"after" pages an order by createdAt/)
  })

  it.each([
    ['not JSON', '{'],
    ['no times', JSON.stringify({ objectId: 'row0001' })],
    [
      'a bad id',
      JSON.stringify({ objectId: "x' or 1=1", createdAt: '2026-01-01', updatedAt: '2026-01-01' }),
    ],
  ])('answers 400 to an "after" that is %s', async (_name, after) => {
    const { status, body } = await get({ order: '-createdAt', after })
    expect(status).toBe(400)
    expect(body.error.code).toBe('invalid_query')
  })

  it('refuses "after" with "skip"', async () => {
    const first = await get({ order: '-createdAt', limit: String(PAGE) })
    const both = await get({ order: '-createdAt', after: first.body.next, skip: '20' })
    expect(both.status).toBe(400)
  })
})
