import { sql } from 'drizzle-orm'
import { queryRows, textArray, type Database } from '../db/client.ts'
import { createCoalescer } from '../db/coalesce.ts'
import type { Cluster } from '../db/cluster/types.ts'

// The roles each user is in (directly, or through the roles a role contains), as the access rule
// needs them: `role:<name>` entries beside `*` and the user's id in the list every statement
// compares an object's ACL with. The list goes into the statement as a constant, so the planner
// estimates from the ACL columns' statistics how many objects the viewer reads.
//
// Every signed-in request needs it, so a process remembers each user's roles for a moment, as it
// does sessions. Any write to a role (its name, its members, its deletion) forgets them all, here
// at once and in every other process through the cluster; a process that may have missed such
// news forgets everything too.

const MEMORY_MS = 5_000
const MAX_REMEMBERED = 10_000
const CHANNEL = 'portico_roles_changed'

const codec = {
  encode: (messages: true[]) => messages.map(() => '1'),
  decode: () => [true as const],
}

export class ViewerRoles {
  readonly #remembered = new Map<string, { roles: string[]; until: number }>()
  /** Moves on every change: a lookup that started before one must not be remembered after it. */
  #generation = 0
  readonly #lookup: (userId: string) => Promise<string[]>
  readonly #changes

  constructor(db: Database, cluster: Pick<Cluster, 'broadcast'>) {
    this.#lookup = createCoalescer(async (userIds: string[]) => {
      const rows = await queryRows<{ id: string; roles: string[] | string }>(
        db,
        sql`select u.id, object_roles(u.id) as roles from unnest(${textArray(userIds)}) as u(id)`,
      )
      const byId = new Map(rows.map((row) => [row.id, parseList(row.roles)]))
      return userIds.map((id) => byId.get(id) ?? [])
    })
    this.#changes = cluster.broadcast(CHANNEL, codec, () => this.forget())
    this.#changes.listen(() => this.forget())
  }

  /** The list a user's access is compared with: `*`, their id and their roles. */
  async listOf(userId: string): Promise<string[]> {
    const now = Date.now()
    const hit = this.#remembered.get(userId)
    if (hit && hit.until > now) return ['*', userId, ...hit.roles]
    const generation = this.#generation
    const roles = await this.#lookup(userId)
    if (generation === this.#generation) {
      if (this.#remembered.size >= MAX_REMEMBERED) this.#remembered.clear()
      this.#remembered.set(userId, { roles, until: now + MEMORY_MS })
    }
    return ['*', userId, ...roles]
  }

  /** A role was written: every process forgets what it remembered. Never throws. */
  async changed(): Promise<void> {
    this.forget()
    // A lost announcement only lets another process use the old roles for MEMORY_MS.
    await this.#changes.publish([true]).catch(() => {})
  }

  forget(): void {
    this.#generation++
    this.#remembered.clear()
  }
}

/** A text[] as the drivers answer it: an array (node-postgres) or its text form. */
function parseList(value: string[] | string | null): string[] {
  if (Array.isArray(value)) return value
  if (!value || value === '{}') return []
  return value
    .slice(1, -1)
    .match(/"(?:[^"\\]|\\.)*"|[^,]+/g)!
    .map((item) => (item.startsWith('"') ? item.slice(1, -1).replace(/\\(.)/g, '$1') : item))
}
