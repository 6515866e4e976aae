import { and, eq, sql } from 'drizzle-orm'
import { rowsOf, type Database } from '../client.ts'
import { liveSockets } from '../schema.ts'
import { isRunning } from './peers.ts'

/**
 * The per-address limit on open live-query sockets: every change is matched against every
 * subscription, so one client must not open without bound. `acquire` takes a slot (false when
 * the address has `max` open already), `release` gives it back when the socket closes.
 */
export interface SocketSlots {
  acquire(address: string): Promise<boolean>
  release(address: string): void
  /** Sockets open on this process (for the metrics). */
  readonly open: number
}

/** One process (the embedded database): counted in memory, exact. */
export function memorySocketSlots(max: number): SocketSlots {
  const open = new Map<string, number>()
  let total = 0
  return {
    async acquire(address) {
      const count = open.get(address) ?? 0
      if (count >= max) return false
      open.set(address, count + 1)
      total++
      return true
    },
    release(address) {
      const left = (open.get(address) ?? 1) - 1
      if (left <= 0) open.delete(address)
      else open.set(address, left)
      total--
    },
    get open() {
      return total
    },
  }
}

/**
 * Several processes on one PostgreSQL: each keeps its count per address in `live_sockets`, and
 * a socket is allowed while the sum over running processes stays within `max`. The count is
 * raised first and checked after, so two processes taking the last slot at the same moment
 * cannot both get it (at worst both refuse). The first check sums every row, which is cheap and
 * can only refuse too much; only when it refuses is the sum taken again over the processes that
 * still run (the rows of a process that died are then removed).
 */
export function databaseSocketSlots(db: Database, processId: string, max: number): SocketSlots {
  let total = 0
  const change = async (address: string, by: number) => {
    const result = await db.execute(sql`
      with changed as (
        insert into live_sockets (process_id, address, count) values (${processId}, ${address}, ${by})
        on conflict (process_id, address) do update set count = live_sockets.count + ${by}
        returning count
      )
      select (select count from changed) + coalesce((
        select sum(count) from live_sockets where address = ${address} and process_id <> ${processId}
      ), 0) as open`)
    return Number(rowsOf<{ open: string }>(result)[0]?.open ?? 0)
  }
  const openAmongRunning = async (address: string) => {
    const result = await db.execute(sql`
      with gone as (
        delete from ${liveSockets} l
        where l.address = ${address} and l.process_id <> ${processId}
          and not ${isRunning(sql`l.process_id`)}
      )
      select coalesce(sum(l.count), 0) as open from ${liveSockets} l
      where l.address = ${address}
        and (l.process_id = ${processId} or ${isRunning(sql`l.process_id`)})`)
    return Number(rowsOf<{ open: string }>(result)[0]?.open ?? 0)
  }
  const release = (address: string) => {
    total--
    void change(address, -1)
      .then(() =>
        db
          .delete(liveSockets)
          .where(
            and(
              eq(liveSockets.processId, processId),
              eq(liveSockets.address, address),
              sql`${liveSockets.count} <= 0`,
            ),
          ),
      )
      // A count left too high only refuses this address a socket too many, until the
      // process stops and its rows go.
      .catch(() => {})
  }
  return {
    async acquire(address) {
      let open = await change(address, 1)
      total++
      // Should the second look fail, the first one's refusal stands (never too lenient).
      if (open > max) open = await openAmongRunning(address).catch(() => open)
      if (open <= max) return true
      release(address)
      return false
    },
    release,
    get open() {
      return total
    },
  }
}
