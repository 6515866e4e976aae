import { eq, sql, type SQL } from 'drizzle-orm'
import type pg from 'pg'
import { advisoryLocks } from '../advisory-locks.ts'
import type { Database } from '../client.ts'
import { liveSockets, serverProcesses } from '../schema.ts'

// The processes running on one PostgreSQL, each in `server_processes` with a digest per setting
// they must share. A process counts as running while it holds its registration lock (a session
// advisory lock keyed on its id, on its cluster's lock connection): PostgreSQL drops the lock
// the moment that connection closes, so a process killed with -9 stops counting at once, with
// no heartbeat to wait out.

/** Settings that differ from those of a process already running on the database. */
export class DifferentSettingsError extends Error {
  override name = 'DifferentSettingsError'
  constructor(
    readonly settings: string[],
    peers: number,
  ) {
    super(
      `these settings differ from the ${peers === 1 ? 'server' : 'servers'} already running on this database: ${settings.join(', ')}. Give every process the same values.`,
    )
  }
}

/** True for the rows of `server_processes` (by `id`) whose process holds its registration lock. */
export const isRunning = (id: SQL | string): SQL => sql`exists (
  select 1 from pg_locks registration
  where registration.locktype = 'advisory' and registration.granted
    and registration.database = (select oid from pg_database where datname = current_database())
    and registration.classid = ${advisoryLocks.processes}::int::oid
    and registration.objid = hashtext(${id})::oid and registration.objsubid = 2)`

/** Takes the registration lock of `id` on `locks`; false when another session holds it. */
export async function lockRegistration(locks: pg.Client, id: string): Promise<boolean> {
  const { rows } = await locks.query<{ held: boolean }>(
    'select pg_try_advisory_lock($1, hashtext($2)) as held',
    [advisoryLocks.processes, id],
  )
  return rows[0]?.held === true
}

/**
 * Registers process `id` (whose registration lock is held) with `settings`, one process at a
 * time: refuses with `DifferentSettingsError` when a running process has other values for
 * settings that must match, since limits, sessions and visitor counts are shared. Rows of
 * processes that are gone are removed on the way, with their live-socket counts.
 */
export async function joinProcesses(
  db: Database,
  id: string,
  settings: Record<string, string>,
): Promise<void> {
  await db.transaction(async (tx) => {
    // Two processes starting at once would otherwise each miss the other.
    await tx.execute(sql`select pg_advisory_xact_lock(${advisoryLocks.joining})`)
    await tx.execute(sql`delete from ${serverProcesses} p where not ${isRunning(sql`p.id`)}`)
    await tx.execute(
      sql`delete from ${liveSockets} where process_id not in (select id from ${serverProcesses})`,
    )
    const running = await tx.select().from(serverProcesses)
    const others = running.filter((peer) => peer.id !== id)
    const differing = differences(others, settings)
    if (differing.length) throw new DifferentSettingsError(differing, others.length)
    await tx.insert(serverProcesses).values({ id, settings }).onConflictDoNothing()
  })
}

/** The names of settings on which any of `peers` differs from `settings`, sorted. */
function differences(peers: { settings: unknown }[], settings: Record<string, string>): string[] {
  const differing = new Set<string>()
  for (const peer of peers) {
    const theirs = peer.settings as Record<string, string>
    for (const name of new Set([...Object.keys(theirs), ...Object.keys(settings)])) {
      if (theirs[name] !== settings[name]) differing.add(name)
    }
  }
  return [...differing].sort()
}

/** Removes process `id` and its live-socket counts (it is stopping). */
export async function leaveProcesses(db: Database, id: string): Promise<void> {
  await db.delete(liveSockets).where(eq(liveSockets.processId, id))
  await db.delete(serverProcesses).where(eq(serverProcesses.id, id))
}
