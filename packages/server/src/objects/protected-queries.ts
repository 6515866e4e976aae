import { HttpError } from '../errors.ts'
import { ANY_OWNER, type Viewer } from './access.ts'
import type { ClassPermissions } from './class-permissions.ts'
import type { Condition } from './condition.ts'

// A field a class hides from a caller (`protectedFields`) is no more theirs to query than to
// read: otherwise `where: { ssn: '123' }`, a `$regex` prefix, a count or a sort order would read
// it back one guess at a time. So a `where` (at any `$or`/`$and`/`$nor` depth; a sub-query's
// own `where` is a query of its own), an `order`, the `keys` asked for (a query's, a live
// subscription's, a sub-query's selected key) and the fields a live subscription watches may
// not name it. Refused as Parse Server refuses it: 119, its own words.
//
// Which fields a query may not name does not depend on the objects it would find, so it is
// decided as Parse decides it: the fields hidden from every group the caller is in (`*`,
// `authenticated`, their id, their roles), without the `userField:` entries, which depend on
// each object. A user querying their own `_User` by id is not refused (Parse's exception).

/** What a caller asks a query of a class to use. */
export interface AskedFields {
  where?: Condition | undefined
  /** `-score,name`: fields, each descending with a `-`. */
  order?: string | undefined
  /** Fields the answer keeps (a `keys` / `select`), or a sub-query's selected key. */
  keys?: readonly string[] | undefined
  /** Fields a live subscription watches (its updates say whether they changed). */
  watch?: readonly string[] | undefined
}

/** The fields a query may not name for `viewer`: hidden from them whatever object. */
export function unqueryableFields(
  permissions: ClassPermissions | undefined,
  viewer: Viewer,
): ReadonlySet<string> {
  const rules = permissions?.protectedFields
  if (!rules || viewer === ANY_OWNER) return new Set()
  const list = new Set(viewer ?? ['*'])
  const signedIn =
    viewer !== undefined && viewer.some((who) => who !== '*' && !who.startsWith('role:'))
  const sets: (readonly string[])[] = []
  for (const [who, fields] of Object.entries(rules)) {
    if (who.startsWith('userField:')) continue
    if (who === 'authenticated' ? signedIn : list.has(who)) sets.push(fields)
  }
  if (sets.length === 0) return new Set()
  return new Set(sets.reduce((kept, fields) => kept.filter((field) => fields.includes(field))))
}

/** Every field name `asked` uses, top-level (`a.b` names `a`). */
export function* askedFieldNames(asked: AskedFields): Generator<string> {
  yield* whereFields(asked.where)
  for (const key of asked.order?.split(',') ?? []) {
    const name = key.startsWith('-') ? key.slice(1) : key
    if (name) yield name
  }
  for (const key of asked.keys ?? []) yield key
  for (const key of asked.watch ?? []) yield key
}

function* whereFields(condition: Condition | undefined): Generator<string> {
  for (const term of condition?.terms ?? []) {
    if ('of' in term) for (const part of term.of) yield* whereFields(part)
    else if (term.kind !== 'related') yield term.field
  }
}

/** Whether the `where` is a user's query of their own `_User` object by id. */
function ownUser(className: string, viewer: Viewer, where: Condition | undefined): boolean {
  if (className !== '_User' || viewer === undefined || viewer === ANY_OWNER) return false
  return (where?.terms ?? []).some(
    (term) =>
      term.kind === 'id' &&
      term.field === 'objectId' &&
      term.test.op === '$eq' &&
      viewer.includes(term.test.value),
  )
}

/** Throws Parse's 119 when `asked` names a field `className` hides from `viewer`. */
export function refuseProtectedFields(
  permissions: ClassPermissions | undefined,
  className: string,
  viewer: Viewer,
  asked: AskedFields,
): void {
  const hidden = unqueryableFields(permissions, viewer)
  if (hidden.size === 0 || ownUser(className, viewer, asked.where)) return
  for (const name of askedFieldNames(asked)) {
    const field = name.split('.')[0]!
    if (hidden.has(field))
      throw new HttpError(
        403,
        'class_permission_denied',
        `This user is not allowed to query ${field} on class ${className}`,
      )
  }
}
