import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { compete, type Leadership } from './lead.ts'
import { memorySocketSlots } from './socket-slots.ts'
import type { Broadcast, Cluster, ClusterSettings } from './types.ts'
import { memoryWindowCounter } from './window-counter.ts'

// One process on the embedded database: everything in memory, and news handed to listeners as
// it is (never encoded).

/** How often a leadership held by another task of this process is tried for again. */
const RETRY_MS = 200

export function openMemoryCluster(settings: ClusterSettings): Cluster {
  const leaderships = new Set<Leadership>()
  /** Names led now (two leaderships of one name take turns). */
  const led = new Set<string>()
  const never = new AbortController().signal

  return {
    kind: 'memory',
    processId: randomUUID(),
    windowCounter: memoryWindowCounter(),
    socketSlots: memorySocketSlots(settings.liveMaxSocketsPerAddress),
    broadcast: <T>() => memoryBroadcast<T>(),
    lead(name, run) {
      const leadership = compete(run, {
        retryMs: RETRY_MS,
        async take() {
          if (led.has(name)) return undefined
          led.add(name)
          return { lost: never, release: async () => void led.delete(name) }
        },
        // Taking a name in memory cannot fail.
        onTakeError: () => {},
      })
      leaderships.add(leadership)
      const forget = () => void leaderships.delete(leadership)
      void leadership.done.then(forget, forget)
      return leadership
    },
    async close() {
      await Promise.all([...leaderships].map((leadership) => leadership.stop()))
    },
  }
}

function memoryBroadcast<T>(): Broadcast<T> {
  const emitter = new EventEmitter().setMaxListeners(0)
  return {
    ready: Promise.resolve(),
    async publish(messages) {
      for (const message of messages) emitter.emit('message', message)
    },
    listen(listener) {
      emitter.on('message', listener)
      return () => emitter.off('message', listener)
    },
  }
}
