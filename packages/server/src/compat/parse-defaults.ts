import type { ServerConfig } from '../config/server.ts'
import type { Acl } from '../objects/acl.ts'

// Parse's defaults, which the apps written for Moralis v1 and Parse Server rely on: a class
// without class-level permissions is open to everyone, signed-out creates included, and an
// object saved without an ACL is publicly readable and writable. They hold on the compatibility
// mount and in cloud code (which calls the mount's routes), for the site's own classes; Parse's
// own classes (`_User`, `_Role`, ...) keep Portico's rules, and `/api` keeps its own.
// COMPAT_STRICT_DEFAULTS turns them into Portico's narrower ones.

/** The ACL Parse gives an object saved without one. */
export const PUBLIC_ACL: Acl = { '*': { read: true, write: true } }

/** Whether writes to `className` through the mount get Parse's defaults under `config`. */
export function hasParseDefaults(config: Pick<ServerConfig, 'compat'>, className: string): boolean {
  return config.compat.strictDefaults !== true && !className.startsWith('_')
}
