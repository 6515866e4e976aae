import { beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'

// One request may not materialise more than ANSWER_MAX_BYTES of objects: a query over the budget
// is refused before its documents are read, and a batch's results share one budget.

const MB = 1024 * 1024
/** A document of about `megabytes` MB as JSON text. */
const blob = (megabytes: number, n: number) => ({ n, blob: 'x'.repeat(megabytes * MB - 100) })

describe.each(databaseKinds())('answer size on %s', (kind) => {
  describe('with the default budget (16 MB) and the default heap', () => {
    let app: FastifyInstance
    let headers: Record<string, string>
    beforeAll(async () => {
      ;({ app } = await testApp(kind))
      ;({ headers } = await signedIn(app))
      // ~36 MB of the attacker's own objects.
      for (let n = 0; n < 36; n++) {
        const created = await app.inject({
          method: 'POST',
          url: '/api/classes/Hoard',
          headers,
          payload: { data: blob(0.99, n) },
        })
        expect(created.statusCode).toBe(201)
      }
    }, 120_000)

    it('50 queries over 36 MB in one batch: refused, and the server goes on serving', async () => {
      const requests = Array.from({ length: 50 }, () => ({
        method: 'GET',
        path: '/api/classes/Hoard?limit=1000',
      }))
      const res = await app.inject({
        method: 'POST',
        url: '/api/batch',
        headers,
        payload: { requests },
      })
      expect(res.statusCode).toBe(200)
      const { results } = res.json()
      expect(results).toHaveLength(50)
      for (const result of results) {
        expect(result.status).toBe(400)
        expect(result.body.error.code).toBe('answer_too_large')
      }
      expect(results[0].body.error.message).toMatch(/smaller "limit"/)
      expect(res.body.length).toBeLessThan(100_000)

      const page = await app.inject({
        url: '/api/classes/Hoard?limit=10&order=n',
        headers,
      })
      expect(page.statusCode).toBe(200)
      expect(page.json().results.map((o: { data: { n: number } }) => o.data.n)).toEqual([
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
      ])
    })

    it('a single query over the budget is refused with a message that says what to do', async () => {
      const res = await app.inject({ url: '/api/classes/Hoard?limit=100', headers })
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toMatchObject({ code: 'answer_too_large' })
      expect(res.json().error.message).toMatch(
        /These 36 objects would take 3\d\.\d MB, over the 16\.0 MB/,
      )
    })
  })

  describe('with a budget of 2.5 MB', () => {
    let app: FastifyInstance
    let headers: Record<string, string>
    beforeAll(async () => {
      ;({ app } = await testApp(kind, { answerMaxBytes: 2.5 * MB }))
      ;({ headers } = await signedIn(app))
      for (let n = 0; n < 3; n++) {
        await app.inject({
          method: 'POST',
          url: '/api/classes/Big',
          headers,
          payload: { data: blob(0.9, n) },
        })
      }
    })

    it('a page within the budget is answered whole; one past it is refused', async () => {
      const two = await app.inject({ url: '/api/classes/Big?limit=2&order=n', headers })
      expect(two.statusCode).toBe(200)
      expect(two.json().results.map((o: { data: { n: number } }) => o.data.n)).toEqual([0, 1])
      const three = await app.inject({ url: '/api/classes/Big?limit=3', headers })
      expect(three.statusCode).toBe(400)
      const rest = await app.inject({ url: '/api/classes/Big?limit=2&skip=2&order=n', headers })
      expect(rest.json().results.map((o: { data: { n: number } }) => o.data.n)).toEqual([2])
    })

    it("a batch's results share the budget; writes after it are still applied and reported", async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/batch',
        headers,
        payload: {
          requests: [
            { method: 'GET', path: '/api/classes/Big?limit=2&order=n' },
            { method: 'GET', path: '/api/classes/Big?limit=1&skip=2' },
            { method: 'POST', path: '/api/classes/Small', body: { data: { after: true } } },
          ],
        },
      })
      const { results } = res.json()
      expect(results.map((r: { status: number }) => r.status)).toEqual([200, 400, 201])
      expect(results[1].body.error.code).toBe('answer_too_large')
      const stored = await app.inject({ url: '/api/classes/Small', headers })
      expect(stored.json().results).toHaveLength(1)
    })
  })
})
