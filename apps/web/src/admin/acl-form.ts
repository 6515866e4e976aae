import type { Acl } from '@portico/sdk/backend'

// The ACL editor's form: an ACL as switches for everyone and one entry per user or role, and
// back, checked before anything is sent (the server checks again). Users are shown by wallet
// address where the console knows it, and may be given by address or user id.

export interface AclEntry {
  /** Stable across edits (React's key). */
  id: number
  kind: 'user' | 'role'
  /** A wallet address or user id; a role name. */
  who: string
  read: boolean
  write: boolean
}

export interface AclDraft {
  publicRead: boolean
  publicWrite: boolean
  entries: AclEntry[]
}

/** Most entries an ACL may have (the server's limit). */
export const MAX_ACL_ENTRIES = 128
const ROLE_NAME = /^[0-9a-zA-Z_\- ]{1,128}$/
const USER = /^(0x[0-9a-fA-F]{40}|[A-Za-z0-9_-]{1,80})$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

let lastId = 0
/** A new, empty entry. */
export const newEntry = (kind: AclEntry['kind']): AclEntry => ({
  id: ++lastId,
  kind,
  who: '',
  read: true,
  write: false,
})

/** The form of `acl`; `addresses` gives users' wallet addresses by user id. */
export function draftOf(acl: Acl, addresses: Record<string, string> = {}): AclDraft {
  const entries: AclEntry[] = []
  for (const [key, rights] of Object.entries(acl)) {
    if (key === '*') continue
    const role = key.startsWith('role:')
    entries.push({
      id: ++lastId,
      kind: role ? 'role' : 'user',
      who: role ? key.slice('role:'.length) : (addresses[key] ?? key),
      read: rights.read === true,
      write: rights.write === true,
    })
  }
  return {
    publicRead: acl['*']?.read === true,
    publicWrite: acl['*']?.write === true,
    entries,
  }
}

/** The ACL a form says, or what is wrong with it (the first problem, naming its entry). */
export function aclOfDraft(draft: AclDraft): { acl: Acl } | { problem: string } {
  if (draft.entries.length > MAX_ACL_ENTRIES)
    return {
      problem: `An ACL has at most ${MAX_ACL_ENTRIES} entries: give access to a role instead of many users.`,
    }
  const acl: Acl = {}
  if (draft.publicRead || draft.publicWrite)
    acl['*'] = {
      ...(draft.publicRead ? { read: true } : {}),
      ...(draft.publicWrite ? { write: true } : {}),
    }
  const seen = new Set<string>()
  for (const [index, entry] of draft.entries.entries()) {
    const n = `Entry ${index + 1}`
    const who =
      entry.kind === 'role'
        ? entry.who
            .trim()
            .replace(/^role:/, '')
            .trim()
        : entry.who.trim()
    if (!who) return { problem: `${n}: say which ${entry.kind}, or remove the entry.` }
    if (entry.kind === 'user' && (!USER.test(who) || (/^0x/i.test(who) && !ADDRESS.test(who))))
      return {
        problem: `${n}: a user is a wallet address (0x and 40 hex digits) or a user id.`,
      }
    if (entry.kind === 'role' && !ROLE_NAME.test(who))
      return {
        problem: `${n}: a role name has letters, digits, spaces, "_" and "-" (at most 128).`,
      }
    if (!entry.read && !entry.write)
      return { problem: `${n} (${who}): tick read, write or both, or remove the entry.` }
    const key = entry.kind === 'role' ? `role:${who}` : ADDRESS.test(who) ? who.toLowerCase() : who
    if (seen.has(key)) return { problem: `${n}: ${who} is listed twice.` }
    seen.add(key)
    acl[entry.kind === 'role' ? `role:${who}` : who] = {
      ...(entry.read ? { read: true } : {}),
      ...(entry.write ? { write: true } : {}),
    }
  }
  return { acl }
}

/** Whether two ACLs give the same rights (whatever the order of their entries). */
export function sameAcl(a: Acl, b: Acl): boolean {
  const flat = (acl: Acl) =>
    Object.entries(acl)
      .map(([key, rights]) => `${key}:${rights.read ? 'r' : ''}${rights.write ? 'w' : ''}`)
      .filter((entry) => !entry.endsWith(':'))
      .sort()
      .join('\n')
  return flat(a) === flat(b)
}

/** Who may change something with this ACL, in a few words. */
export function writersOf(acl: Acl, addresses: Record<string, string> = {}): string {
  if (acl['*']?.write) return 'Everyone'
  const writers = Object.entries(acl)
    .filter(([, rights]) => rights.write)
    .map(([key]) => (key.startsWith('role:') ? key : (addresses[key] ?? key)))
  if (writers.length === 0) return 'Only the console'
  return writers.length > 2
    ? `${writers.slice(0, 2).join(', ')} and ${writers.length - 2} more`
    : writers.join(', ')
}
