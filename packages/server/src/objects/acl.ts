import { badRequest } from '../errors.ts'

// A Parse ACL as it is written on the wire: who may read and who may write, by `*` (everyone),
// a user id or `role:<name>`. Only `true` flags are kept. `{}` is the master key's alone.

export type Acl = Record<string, { read?: true; write?: true }>

/** Checks an ACL as Parse writes it; throws 400 `invalid_acl` naming what is wrong. */
export function parseAcl(value: unknown): Acl {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw badRequest(
      '"ACL" must be an object of grants: {"*": {"read": true}, ...}.',
      'invalid_value',
    )
  const acl: Acl = {}
  for (const [who, rights] of Object.entries(value as Record<string, unknown>)) {
    if (who === '' || who.length > 128 || (who.startsWith('role:') && who.length === 5))
      throw badRequest(
        `"ACL" names "${who.slice(0, 80)}", which is no user or role.`,
        'invalid_value',
      )
    if (rights === null || typeof rights !== 'object' || Array.isArray(rights))
      throw badRequest(
        `"ACL.${who.slice(0, 80)}" must be {"read": true, "write": true}.`,
        'invalid_value',
      )
    const grant: { read?: true; write?: true } = {}
    for (const [key, flag] of Object.entries(rights as Record<string, unknown>)) {
      if ((key !== 'read' && key !== 'write') || typeof flag !== 'boolean')
        throw badRequest(
          `"ACL.${who.slice(0, 80)}" may only hold "read" and "write", each true or false.`,
          'invalid_value',
        )
      if (flag) grant[key] = true
    }
    if (grant.read || grant.write) acl[who] = grant
  }
  return acl
}
