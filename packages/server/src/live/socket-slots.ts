import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { LIVE_MS } from '../db/peers.ts'
import { liveSockets, serverProcesses } from '../db/schema.ts'

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
 * a socket is allowed while the sum over live processes stays within `max`. The count is raised
 * first and checked after, in one statement, so two processes taking the last slot at the same
 * moment cannot both get it (at worst both refuse). Rows of a process that died without leaving
 * stop counting once it is no longer seen alive.
 */
export function databaseSocketSlots(
  db: Database,
  processId: string,
  max: number,
): SocketSlots & { leave(): Promise<void> } {
  let total = 0
  const change = (address: string, by: number) =>
    db.execute(sql`
      with changed as (
        insert into live_sockets (process_id, address, count) values (${processId}, ${address}, ${by})
        on conflict (process_id, address) do update set count = live_sockets.count + ${by}
        returning count
      )
      select (select count from changed) + coalesce((
        select sum(l.count) from live_sockets l join ${serverProcesses} p on p.id = l.process_id
        where l.address = ${address} and l.process_id <> ${processId}
          and p.last_seen > now() - make_interval(secs => ${LIVE_MS / 1000})
      ), 0) as open`)
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
      .catch(() => {})
  }
  return {
    async acquire(address) {
      const result = await change(address, 1)
      const open = Number((result as unknown as { rows: { open: string }[] }).rows[0]?.open ?? 0)
      total++
      if (open <= max) return true
      release(address)
      return false
    },
    release,
    get open() {
      return total
    },
    async leave() {
      await db
        .delete(liveSockets)
        .where(eq(liveSockets.processId, processId))
        .catch(() => {})
    },
  }
}
