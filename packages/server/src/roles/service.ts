import type { ObjectStore } from '../objects/object-store.ts'
import type { RoleMembers } from './members.ts'
import { changeRole, createRole, deleteRole, listRoles, readRole, type RoleDeps } from './roles.ts'

/** A role operation's arguments after its dependencies. */
type Rest<F> = F extends (deps: RoleDeps, ...rest: infer R) => unknown ? R : never

/** The roles (roles.ts) on one object store, for the routes of `/api` and the console. */
export class Roles {
  readonly #deps: RoleDeps

  constructor(members: RoleMembers, objects: ObjectStore) {
    this.#deps = { members, objects }
  }

  list(...args: Rest<typeof listRoles>) {
    return listRoles(this.#deps, ...args)
  }

  read(...args: Rest<typeof readRole>) {
    return readRole(this.#deps, ...args)
  }

  create(...args: Rest<typeof createRole>) {
    return createRole(this.#deps, ...args)
  }

  change(...args: Rest<typeof changeRole>) {
    return changeRole(this.#deps, ...args)
  }

  delete(...args: Rest<typeof deleteRole>) {
    return deleteRole(this.#deps, ...args)
  }
}
