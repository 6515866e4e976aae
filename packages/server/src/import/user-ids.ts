import type { Acl } from '../objects/acl.ts'
import type { ObjectStore } from '../objects/store.ts'

/** The Portico user ids that the Parse user ids in ACL keys stand for. */
export class UserIds {
  readonly #known = new Map<string, string>()
  readonly unknown = new Set<string>()
  constructor(private readonly objects: ObjectStore) {}

  /** Looks up the users among `keys` not looked up yet. */
  async learn(keys: string[]) {
    const ids = [
      ...new Set(keys.filter((k) => k !== '*' && !k.startsWith('role:') && !this.#known.has(k))),
    ]
    if (ids.length === 0) return
    // An imported user (or one the mount made) is the owner of its `_User` object.
    const found = await this.objects.owners('_User', ids)
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
