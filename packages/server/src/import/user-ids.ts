import { inArray } from 'drizzle-orm'
import type { Database } from '../db/client.ts'
import { users } from '../db/schema.ts'
import type { Acl } from '../objects/acl.ts'
import type { ObjectStore } from '../objects/object-store.ts'

/** The Portico user ids that the Parse user ids in ACL keys stand for. */
export class UserIds {
  readonly #known = new Map<string, string>()
  readonly unknown = new Set<string>()
  constructor(
    private readonly db: Database,
    private readonly objects: ObjectStore,
  ) {}

  /** Looks up the users among `keys` not looked up yet. */
  async learn(keys: string[]) {
    const ids = [
      ...new Set(keys.filter((k) => k !== '*' && !k.startsWith('role:') && !this.#known.has(k))),
    ]
    if (ids.length === 0) return
    // An imported user (or one the mount made) is the owner of its `_User` object.
    const found = await this.objects.owners('_User', ids)
    // A Portico user without a `_User` object (signed in through /api, never the mount) is
    // named by their own id, as Portico's own exports write it.
    const rest = ids.filter((id) => !found.has(id))
    if (rest.length)
      for (const { id } of await this.db
        .select({ id: users.id })
        .from(users)
        .where(inArray(users.id, rest)))
        found.set(id, id)
    for (const id of ids) {
      this.#known.set(id, found.get(id) ?? id)
      if (!found.has(id)) this.unknown.add(id)
      else this.unknown.delete(id)
    }
  }

  /** Looks up again the ids not found so far (users imported since). */
  async recheck() {
    const ids = [...this.unknown]
    for (const id of ids) this.#known.delete(id)
    this.unknown.clear()
    for (let i = 0; i < ids.length; i += 1000) await this.learn(ids.slice(i, i + 1000))
  }

  /** A user id as Portico knows it (the id itself when that user is not imported). */
  map(id: string): string {
    return this.#known.get(id) ?? id
  }

  /** Whether `id` is an imported user. */
  has(id: string): boolean {
    return this.#known.has(id) && !this.unknown.has(id)
  }

  /** `acl` with its user ids mapped. */
  acl(acl: Acl): Acl {
    const out: Acl = {}
    for (const [who, grant] of Object.entries(acl))
      out[who === '*' || who.startsWith('role:') ? who : this.map(who)] = grant
    return out
  }
}
