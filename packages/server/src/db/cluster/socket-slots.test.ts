import { describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { testConfig, testDatabase } from '../../../test/helpers.ts'
import { startServer } from '../../../test/server-process.ts'
import { buildServer } from '../../app.ts'
import { memorySocketSlots } from './socket-slots.ts'

const connect = (origin: string) =>
  new Promise<{ socket: WebSocket; status: number }>((resolve) => {
    const socket = new WebSocket(`${origin.replace('http', 'ws')}/api/live`)
    socket.once('open', () => resolve({ socket, status: 101 }))
    socket.once('unexpected-response', (request, response) => {
      request.destroy()
      resolve({ socket, status: response.statusCode ?? 0 })
    })
  })

describe('the live socket limit of one process', () => {
  it('gives an address at most `max` sockets, and a released one back', async () => {
    const slots = memorySocketSlots(2)
    expect([await slots.acquire('a'), await slots.acquire('a'), await slots.acquire('a')]).toEqual([
      true,
      true,
      false,
    ])
    expect(await slots.acquire('b')).toBe(true)
    expect(slots.open).toBe(3)
    slots.release('a')
    expect(await slots.acquire('a')).toBe(true)
  })
})

const postgres = process.env.PORTICO_TEST_DATABASE_URL ? describe : describe.skip

postgres('the live socket limit on PostgreSQL', () => {
  it('holds across two processes on one database, and forgets a process killed with -9', async () => {
    const database = await testDatabase('postgres')
    const config = testConfig({ liveMaxSocketsPerAddress: 2 })
    // A: a real server process, to be killed; B: one in this process.
    const a = startServer({
      DATABASE_URL: database.url!,
      LIVE_MAX_SOCKETS_PER_ADDRESS: '2',
      PUBLIC_ORIGINS: config.app.publicOrigins.join(','),
    })
    const b = await buildServer({ config, database, logger: false })
    const open: WebSocket[] = []
    const status = async (origin: string) => {
      const { socket, status } = await connect(origin)
      if (status === 101) open.push(socket)
      return status
    }
    try {
      const [originA, originB] = await Promise.all([
        a.url,
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

      // A is killed with its two sockets open: they stop counting as soon as PostgreSQL sees
      // its connections close (within milliseconds, not the 30 s of a heartbeat).
      a.child.kill('SIGKILL')
      await a.exited
      await expect.poll(() => status(originB), { timeout: 2_000, interval: 20 }).toBe(101)
      expect(await status(originB)).toBe(101)
      expect(await status(originB)).toBe(429)
    } finally {
      a.child.kill('SIGKILL')
      for (const socket of open) socket.terminate()
      await b.close()
      await database.close()
    }
  })
})
