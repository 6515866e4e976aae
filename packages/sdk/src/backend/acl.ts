import type { Acl } from './objects.ts'

// Building ACLs without spelling out Parse's map: who reads (`r`), writes (`w`) or both (`rw`).

/** What one user or role may do with an object: read it, write it, or both. */
export type AclAccess = 'r' | 'w' | 'rw'

export interface AclOfParameters {
  /** Everyone (signed in or not) reads it. */
  publicRead?: boolean | undefined
  /** Everyone (signed in or not) changes it: rarely what you want. */
  publicWrite?: boolean | undefined
  /** By user id. */
  users?: Record<string, AclAccess> | undefined
  /** By role name (members of the role and of the roles it contains). */
  roles?: Record<string, AclAccess> | undefined
}

const rights = (access: AclAccess) => {
  if (access !== 'r' && access !== 'w' && access !== 'rw')
    throw new TypeError(`An ACL access is "r", "w" or "rw", not ${JSON.stringify(access)}`)
  return {
    ...(access.includes('r') ? { read: true } : {}),
    ...(access.includes('w') ? { write: true } : {}),
  }
}

/**
 * An ACL (who reads and who writes an object or a role), in Parse's form.
 * @example
 * await saveObject(client, {
 *   className: 'Report',
 *   data: { title: 'Q3' },
 *   acl: aclOf({ users: { [me.id]: 'rw' }, roles: { Auditors: 'r' } }),
 * })
 */
export function aclOf({ publicRead, publicWrite, users = {}, roles = {} }: AclOfParameters): Acl {
  const acl: Acl = {}
  if (publicRead || publicWrite)
    acl['*'] = { ...(publicRead ? { read: true } : {}), ...(publicWrite ? { write: true } : {}) }
  for (const [userId, access] of Object.entries(users)) acl[userId] = rights(access)
  for (const [name, access] of Object.entries(roles)) acl[`role:${name}`] = rights(access)
  return acl
}
