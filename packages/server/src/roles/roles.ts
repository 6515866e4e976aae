import { badRequest, HttpError, notFound } from '../errors.ts'
import type { Changer } from '../objects/access.ts'
import { ownerAcl, type Acl } from '../objects/acl.ts'
import { parseWhere } from '../objects/condition.ts'
import type { RelationChange } from '../objects/relations.ts'
import type { WireObject } from '../objects/rows.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { Counts, RoleMembers } from './members.ts'
import { isDuplicateName, ROLE_CLASS, ROLE_RELATIONS, roleWriteProblem } from './rules.ts'

// Roles as `/api/roles` and the console manage them. A role is a `_Role` object: every read and
// write goes through the object store with the caller as viewer or changer, so the role's own
// ACL decides who sees it and who changes its members, exactly as on the compatibility mount.
// The console passes `ANY_OWNER`. Members are rows of `object_relations` (objects/relations.ts),
// written in the role's own transaction and read in members.ts.

export interface RoleDeps {
  objects: ObjectStore
  members: RoleMembers
}

export interface RoleRef {
  objectId: string
  name: string
}

export interface RoleSummary extends RoleRef {
  owner: string
  acl: Acl
  createdAt: string
  updatedAt: string
  /** Users in it directly. */
  userCount: number
  /** Roles in it directly. */
  roleCount: number
}

export interface RoleDetail extends RoleSummary {
  /** Ids of its users (the first `MAX_ROLE_USERS`, sorted). */
  users: string[]
  /** Roles in it directly (their members are its members), those the viewer may read. */
  roles: RoleRef[]
  /** Roles that contain it, directly or through others, those the viewer may read. */
  parentRoles: RoleRef[]
}

/** Users (ids or wallet addresses) and roles (names or ids) named by a request. */
export interface Members {
  users?: readonly string[] | undefined
  roles?: readonly string[] | undefined
}

const invalid = (message: string) => badRequest(message, 'invalid_value')

const nameTaken = (name: string) =>
  new HttpError(
    409,
    'role_name_taken',
    `A role named "${name}" already exists: role names are unique. Add members to it, or pick another name.`,
  )

const noSuchRole = (name: string) =>
  notFound(`No role named "${name.slice(0, 128)}", or it is not yours to read.`)

/** The role named `name`, if `viewer` may read it; 404 otherwise. */
export async function findRole(deps: RoleDeps, viewer: Changer | undefined, name: string) {
  const { results } = await deps.objects.query(viewer, ROLE_CLASS, {
    where: parseWhere({ name }),
    limit: 1,
    skip: 0,
  })
  if (!results[0]) throw noSuchRole(name)
  return results[0]
}

/** A page of the roles `viewer` may read, by name, with how many of them there are. */
export async function listRoles(
  deps: RoleDeps,
  viewer: Changer | undefined,
  page: { limit: number; skip: number },
): Promise<{ results: RoleSummary[]; count: number }> {
  const found = await deps.objects.query(viewer, ROLE_CLASS, {
    ...page,
    order: 'name',
    count: true,
  })
  const counts = await deps.members.counts(found.results.map((role) => role.objectId))
  return {
    results: found.results.map((role) => summaryOf(role, counts)),
    count: found.count ?? found.results.length,
  }
}

/** The role named `name` with its members, if `viewer` may read it. */
export async function readRole(deps: RoleDeps, viewer: Changer | undefined, name: string) {
  return detailOf(deps, viewer, await findRole(deps, viewer, name))
}

/**
 * Creates a role with its first members, in one transaction. Without an ACL its creator reads
 * and changes it and everyone reads it (so ACLs naming it can be checked by anyone who sees
 * them). 409 `role_name_taken` when the name is in use.
 */
export async function createRole(
  deps: RoleDeps,
  creator: { ownerId: string; viewer: Changer },
  input: { name: string; acl?: Acl | undefined } & Members,
): Promise<RoleDetail> {
  const data = { name: input.name }
  const problem = roleWriteProblem(undefined, data, [])
  if (problem) throw invalid(problem)
  const relations = await relationChanges(deps, creator.viewer, undefined, input, {})
  const acl = input.acl ?? ownerAcl(creator.ownerId, true)
  let made: WireObject
  try {
    made = await deps.objects.createRelated(
      { className: ROLE_CLASS, ownerId: creator.ownerId, acl, data },
      relations,
    )
  } catch (error) {
    throw isDuplicateName(error) ? nameTaken(input.name) : error
  }
  return detailOf(deps, creator.viewer, made)
}

/**
 * Adds and removes members of a role and/or replaces its ACL, in one transaction under the
 * role's ACL: 404 when `changer` cannot read the role, 403 when they read it but may not
 * write it. Returns the role as it is now (read as `changer` saw it before, since a new ACL may
 * hide it from them).
 */
export async function changeRole(
  deps: RoleDeps,
  changer: Changer,
  name: string,
  change: { add?: Members | undefined; remove?: Members | undefined; acl?: Acl | undefined },
): Promise<RoleDetail> {
  const role = await findRole(deps, changer, name)
  const relations = await relationChanges(
    deps,
    changer,
    role.objectId,
    change.add ?? {},
    change.remove ?? {},
  )
  if (relations.length === 0 && change.acl === undefined)
    throw invalid('Nothing to change: give members to add or remove, or an ACL.')
  const { after } = await deps.objects.modify(
    { className: ROLE_CLASS, objectId: role.objectId, userId: changer },
    (current) => {
      const problem = roleWriteProblem(current.data, current.data, relations)
      if (problem) throw invalid(problem)
      return { relations, ...(change.acl === undefined ? {} : { acl: change.acl }) }
    },
  )
  return detailOf(deps, changer, after)
}

/** Deletes a role (under its ACL, as `changeRole`); returns it as it was. */
export async function deleteRole(
  deps: RoleDeps,
  changer: Changer,
  name: string,
): Promise<RoleDetail> {
  const role = await findRole(deps, changer, name)
  const before = await detailOf(deps, changer, role)
  await deps.objects.delete({ className: ROLE_CLASS, objectId: role.objectId, userId: changer })
  return before
}

/** The relation changes a request names, its users and roles resolved to ids. */
async function relationChanges(
  deps: RoleDeps,
  viewer: Changer,
  selfId: string | undefined,
  add: Members,
  remove: Members,
): Promise<RelationChange[]> {
  const [addUsers, removeUsers, addRoles, removeRoles] = await Promise.all([
    deps.members.userIds(add.users ?? []),
    deps.members.userIds(remove.users ?? []),
    roleIdsOf(deps, viewer, add.roles ?? []),
    roleIdsOf(deps, viewer, remove.roles ?? []),
  ])
  if (selfId !== undefined && addRoles.includes(selfId))
    throw invalid('A role cannot contain itself.')
  for (const [added, removed, what] of [
    [addUsers, removeUsers, 'user'],
    [addRoles, removeRoles, 'role'],
  ] as const) {
    const both = added.find((id) => removed.includes(id))
    if (both !== undefined) throw invalid(`The ${what} ${both} is both added and removed.`)
  }
  const changes: RelationChange[] = [
    { field: 'users', targetClass: ROLE_RELATIONS.users, add: addUsers, remove: removeUsers },
    { field: 'roles', targetClass: ROLE_RELATIONS.roles, add: addRoles, remove: removeRoles },
  ]
  return changes.filter((change) => change.add.length + change.remove.length > 0)
}

/**
 * The ids of the roles that `entries` (names, or ids) name among those `viewer` may read,
 * without repeats; a name is looked for first. 400 naming the first entry that names none.
 */
async function roleIdsOf(
  deps: RoleDeps,
  viewer: Changer,
  entries: readonly string[],
): Promise<string[]> {
  if (entries.length === 0) return []
  const unique = [...new Set(entries)]
  const { results } = await deps.objects.query(viewer, ROLE_CLASS, {
    where: parseWhere({ $or: [{ name: { $in: unique } }, { objectId: { $in: unique } }] }),
    limit: unique.length * 2,
    skip: 0,
  })
  const ids = unique.map((entry) => {
    const role =
      results.find((found) => found.data.name === entry) ??
      results.find((found) => found.objectId === entry)
    if (!role) throw invalid(`No role named "${entry}" that you may read.`)
    return role.objectId
  })
  return [...new Set(ids)]
}

function summaryOf(role: WireObject, counts: Counts): RoleSummary {
  const n = counts.get(role.objectId)
  return {
    objectId: role.objectId,
    name: String(role.data.name),
    owner: role.owner,
    acl: role.acl,
    createdAt: role.createdAt,
    updatedAt: role.updatedAt,
    userCount: n?.users ?? 0,
    roleCount: n?.roles ?? 0,
  }
}

/** A role with its members, the roles among them named only when `viewer` may read them. */
async function detailOf(
  deps: RoleDeps,
  viewer: Changer | undefined,
  role: WireObject,
): Promise<RoleDetail> {
  const [counts, userIds, childIds, parentIds] = await Promise.all([
    deps.members.counts([role.objectId]),
    deps.members.of(role.objectId, 'users'),
    deps.members.of(role.objectId, 'roles'),
    deps.members.parents(role.objectId),
  ])
  const readable = await deps.objects.readable(
    [...new Set([...childIds, ...parentIds])].map((objectId) => ({
      className: ROLE_CLASS,
      objectId,
    })),
    viewer,
  )
  const refs = (ids: string[]) =>
    ids
      .flatMap((id) => {
        const found = readable.get(`${ROLE_CLASS}/${id}`)
        return found ? [{ objectId: id, name: String(found.data.name) }] : []
      })
      .sort((a, b) => a.name.localeCompare(b.name))
  return {
    ...summaryOf(role, counts),
    users: userIds,
    roles: refs(childIds),
    parentRoles: refs(parentIds),
  }
}
