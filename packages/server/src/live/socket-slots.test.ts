import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { testConfig, testDatabase } from '../../test/helpers.ts'
import { buildServer } from '../app.ts'

const connect = (origin: string) =>
  new Promise<{ socket: WebSocket; status: number }>((resolve) => {
    const socket = new WebSocket(`${origin.replace('http', 'ws')}/api/live`)
    socket.once('open', () => resolve({ socket, status: 101 }))
    socket.once('unexpected-response', (request, response) => {
      request.destroy()
      resolve({ socket, status: response.statusCode ?? 0 })
    })
  })

const postgres = process.env.PORTICO_TEST_DATABASE_URL ? describe : describe.skip

postgres('the live socket limit on PostgreSQL', () => {
  it('holds across two processes on one database, and forgets a process that died', async () => {
    const database = await testDatabase('postgres')
    const config = testConfig({ liveMaxSocketsPerAddress: 2 })
    const [a, b] = await Promise.all([
      buildServer({ config, database, logger: false }),
      buildServer({ config, database, logger: false }),
    ])
    const open: WebSocket[] = []
    const status = async (origin: string) => {
      const { socket, status } = await connect(origin)
      if (status === 101) open.push(socket)
      return status
    }
    try {
      const [originA, originB] = await Promise.all([
        a.listen({ host: '127.0.0.1', port: 0 }),
        b.listen({ host: '127.0.0.1', port: 0 }),
      ])
      expect([await status(originA), await status(originB)]).toEqual([101, 101])
      // The address holds two sockets in all: neither process gives it a third.
      expect([await status(originA), await status(originB)]).toEqual([429, 429])

      // B's closes: A has a place again.
      const onB = open.pop()!
      onB.close()
      await new Promise((resolve) => onB.once('close', resolve))
      await expect.poll(() => status(originA)).toBe(101)
      expect(await status(originB)).toBe(429)

      // A dies without leaving (not seen for a minute): its two sockets stop counting.
      await database.db.execute(
        sql`update server_processes set last_seen = now() - interval '1 minute' where id = ${a.processId!}`,
      )
      expect(await status(originB)).toBe(101)
    } finally {
      for (const socket of open) socket.terminate()
      await a.close()
      await b.close()
      await database.close()
    }
  })
})
