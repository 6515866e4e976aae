import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'
import { objects } from '../db/schema.ts'
import { parseWhere } from './condition.ts'
import { translateOrder, translateWhere, walksCreationIndex as walks } from './query.ts'
import { queryObjects } from './pages.ts'

// Query translation against a real database: operators, order, paging, count, edge cases and
// injection attempts through field names, values and order terms.

const rows = [
  { name: 'ada', score: 10, tags: ['a'], when: { __type: 'Date', iso: '2024-01-01T00:00:00Z' } },
  { name: 'bob', score: 20, active: true, when: { __type: 'Date', iso: '2024-02-01T00:00:00Z' } },
  { name: 'cy', score: 30, active: false },
  { name: 'dee', score: '40' },
  { name: "o'neil", score: null },
  { name: 'eve' },
]

describe.each(databaseKinds())('object queries on %s', (kind) => {
  let app: FastifyInstance
  let headers: Record<string, string>
  beforeAll(async () => {
    ;({ app } = await testApp(kind))
    ;({ headers } = await signedIn(app))
    for (const data of rows) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/classes/Player',
        headers,
        payload: { data },
      })
      expect(res.statusCode).toBe(201)
    }
  })

  async function query(params: Record<string, string | object | undefined>) {
    const search = new URLSearchParams()
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined) search.set(k, typeof v === 'string' ? v : JSON.stringify(v))
    }
    return app.inject({ url: `/api/classes/Player?${search}`, headers })
  }
  async function names(where: object, order = 'name') {
    const res = await query({ where, order })
    expect(res.statusCode, res.body).toBe(200)
    return (res.json().results as { data: { name: string } }[]).map((r) => r.data.name)
  }

  it('filters with equality and every operator', async () => {
    expect(await names({ name: 'bob' })).toEqual(['bob'])
    expect(await names({ score: 20 })).toEqual(['bob'])
    expect(await names({ score: '40' })).toEqual(['dee'])
    expect(await names({ score: null })).toEqual(['eve', "o'neil"])
    expect(await names({ score: { $ne: null } })).toEqual(['ada', 'bob', 'cy', 'dee'])
    expect(await names({ score: { $ne: 20 } })).toEqual(['ada', 'cy', 'dee', 'eve', "o'neil"])
    // Ranges only compare values of the same JSON type: the string "40" is not > 15.
    expect(await names({ score: { $gt: 15 } })).toEqual(['bob', 'cy'])
    expect(await names({ score: { $gte: 20, $lt: 30 } })).toEqual(['bob'])
    expect(await names({ score: { $lte: 10 } })).toEqual(['ada'])
    expect(await names({ name: { $gt: 'cy' } })).toEqual(['dee', 'eve', "o'neil"])
    expect(await names({ score: { $in: [10, 30, '40'] } })).toEqual(['ada', 'cy', 'dee'])
    expect(await names({ score: { $in: [] } })).toEqual([])
    expect(await names({ score: { $nin: [10, 20] } })).toEqual(['cy', 'dee', 'eve', "o'neil"])
    expect(await names({ active: { $exists: true } })).toEqual(['bob', 'cy'])
    expect(await names({ active: { $exists: false }, score: { $exists: true } })).toEqual([
      'ada',
      'dee',
      "o'neil",
    ])
    expect(await names({ active: false })).toEqual(['cy'])
    expect(await names({ tags: ['a'] })).toEqual(['ada'])
  })

  it('combines conditions with $or and $and, matches $regex and $all', async () => {
    expect(await names({ $or: [{ name: 'ada' }, { score: { $gte: 30 } }] })).toEqual(['ada', 'cy'])
    expect(
      await names({
        $and: [{ score: { $gt: 5 } }, { $or: [{ active: true }, { active: false }] }],
      }),
    ).toEqual(['bob', 'cy'])
    expect(await names({ name: { $regex: '^[a-c]' } })).toEqual(['ada', 'bob', 'cy'])
    expect(await names({ name: { $regex: '^B', $options: 'i' } })).toEqual(['bob'])
    // Only strings match a pattern: the number 10 is not the text "10".
    expect(await names({ score: { $regex: '0' } })).toEqual(['dee'])
    expect(await names({ tags: { $all: ['a'] } })).toEqual(['ada'])
    expect(await names({ tags: { $all: ['a', 'b'] } })).toEqual([])
  })

  it('compares dates by time', async () => {
    expect(await names({ when: { $gt: { __type: 'Date', iso: '2024-01-15T00:00:00Z' } } })).toEqual(
      ['bob'],
    )
    expect(await names({ when: { __type: 'Date', iso: '2024-01-01T00:00:00.000+00:00' } })).toEqual(
      ['ada'],
    )
    const before = await names({
      createdAt: { $lte: { __type: 'Date', iso: new Date().toISOString() } },
    })
    expect(before).toHaveLength(rows.length)
  })

  it('orders, pages and counts', async () => {
    const res = await query({ order: '-score,name', limit: '2', skip: '1', count: '1' })
    const body = res.json()
    expect(body.count).toBe(rows.length)
    expect(body.results.map((r: { data: { name: string } }) => r.data.name)).toEqual(['cy', 'bob'])
    const onlyCount = await query({ where: { score: { $gt: 0 } }, limit: '0', count: 'true' })
    expect(onlyCount.json()).toEqual({ results: [], count: 3 })
    const newest = (await query({ order: '-createdAt' })).json().results as { createdAt: string }[]
    const times = newest.map((r) => Date.parse(r.createdAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    const byId = (await query({ order: 'objectId' })).json().results
    const ids = byId.map((r: { objectId: string }) => r.objectId)
    expect((await query({ where: { objectId: ids[0] } })).json().results).toHaveLength(1)
  })

  it('refuses a limit above 1000 and malformed queries', async () => {
    const tooMany = await query({ limit: '1001' })
    expect(tooMany.statusCode).toBe(400)
    expect(tooMany.json().error.code).toBe('limit_too_large')
    expect((await query({ limit: '1000' })).statusCode).toBe(200)
    for (const bad of [
      { limit: '-1' },
      { limit: '1e3' },
      { where: 'not json' },
      { where: '[1]' },
      { where: { score: { $regex: 5 } } },
      { where: { name: { $regex: 'a', $options: 'q' } } },
      { where: { $or: 'x' } },
      { where: { name: { $options: 'i' } } },
      { where: { score: { $gt: [1] } } },
      { where: { score: { $in: 5 } } },
      { where: { score: { $gt: 1, plain: 2 } } },
      { where: { active: { $exists: 'yes' } } },
      { order: 'score;drop' },
    ]) {
      const res = await query(bad)
      expect(res.statusCode, JSON.stringify(bad)).toBe(400)
    }
  })

  it('treats injection attempts as names to refuse or values to match literally', async () => {
    const attacks = [
      "name' OR '1'='1",
      "x'); drop table objects; --",
      'data->>0',
      'name") or true --',
    ]
    for (const attack of attacks) {
      expect((await query({ where: { [attack]: 1 } })).statusCode).toBe(400)
      expect((await query({ order: attack })).statusCode).toBe(400)
      // As a value it is just a string that no row holds.
      expect(await names({ name: attack })).toEqual([])
      expect(await names({ name: { $in: [attack, "' or 1=1 --"] } })).toEqual([])
    }
    expect(await names({ name: "o'neil" })).toEqual(["o'neil"])
    expect(await names({ name: { $ne: "' or 1=1" } })).toHaveLength(rows.length)
    // Everything is still there.
    expect((await query({ count: '1', limit: '0' })).json().count).toBe(rows.length)
  })
})

describe('walksCreationIndex', () => {
  it('walks the creation index for pages in creation order filtered on document fields only', () => {
    const walksCreationIndex = (where: object | undefined, order: string | undefined) =>
      walks(where === undefined ? undefined : parseWhere(where), order)
    expect(walksCreationIndex(undefined, undefined)).toBe(true)
    expect(walksCreationIndex({ score: { $gte: 5 }, tags: ['a'] }, '-createdAt')).toBe(true)
    expect(walksCreationIndex({ $or: [{ a: 1 }, { $and: [{ b: 2 }] }] }, 'createdAt,score')).toBe(
      true,
    )
    // Nearest first is an order of its own; an order given, or a $nearSphere nested, is not.
    const near = { $nearSphere: { __type: 'GeoPoint', latitude: 1, longitude: 2 } }
    expect(walksCreationIndex({ at: near }, undefined)).toBe(false)
    expect(walksCreationIndex({ at: near }, '-createdAt')).toBe(true)
    expect(walksCreationIndex({ $or: [{ at: near }, { a: 1 }] }, undefined)).toBe(true)
    // Another first order term, or a condition on an indexed column: the planner decides.
    expect(walksCreationIndex({ score: 1 }, '-score')).toBe(false)
    expect(walksCreationIndex({ owner: 'u1' }, '-createdAt')).toBe(false)
    expect(walksCreationIndex({ $or: [{ a: 1 }, { objectId: 'x' }] }, undefined)).toBe(false)
  })
})

describe.each(databaseKinds())('a page read by walking the creation index on %s', (kind) => {
  it('answers exactly what the planner would, whatever the class size', async () => {
    const { app } = await testApp(kind)
    const { user } = await signedIn(app)
    for (let start = 0; start < 600; start += 200)
      await app.services.database.db.insert(objects).values(
        Array.from({ length: 200 }, (_, i) => ({
          className: 'Walk',
          id: `w${start + i}`,
          ownerId: user.id,
          readPerm: i % 3 === 0 ? ['*', user.id] : [user.id],
          writePerm: [user.id],
          data: { n: start + i, odd: (start + i) % 2 === 1 },
          createdAt: new Date(Date.UTC(2024, 0, 1) + (start + i) * 1000),
          updatedAt: new Date(),
        })),
      )
    for (const [where, order, viewer] of [
      [{ n: { $gte: 100 } }, '-createdAt', user.id],
      [{ odd: true }, undefined, undefined],
      [{ $or: [{ n: 5 }, { n: { $gt: 590 } }] }, 'createdAt', user.id],
    ] as const) {
      const input = {
        className: 'Walk',
        viewer: viewer === undefined ? undefined : ['*', viewer],
        where: translateWhere(parseWhere(where)),
        orderBy: translateOrder(order),
        limit: 20,
        skip: 2,
        count: true,
        maxBytes: 1e7,
      }
      const planned = await queryObjects(app.services.database.db, input)
      const walked = await queryObjects(app.services.database.db, {
        ...input,
        walkCreationIndex: true,
      })
      expect(walked, JSON.stringify(where)).toEqual(planned)
      expect(walked.results.length).toBeGreaterThan(0)
    }
  })
})
