import type { BackendClient } from './client.ts'
import type { Acl } from './objects.ts'
import type { RoleMembers, RolesAnswer, WireRole, WireRoleSummary } from '../wire/types.ts'

// Roles: named groups of users that ACLs name as `role:<name>` (see `aclOf`). A role's members
// are its users and the members of the roles it contains, at any depth. Each role has an ACL of
// its own: who may read it, and who may change its members (by default its creator; everyone
// reads it). Roles are addressed by their name, which is unique and set once. Every function
// takes the client first.

export type { RoleMembers }

export interface RoleRef {
  objectId: string
  name: string
}

/** A role in a list, with how many users and roles it holds directly. */
export interface RoleSummary extends RoleRef {
  /** Id of the user who created it. */
  owner: string
  /** Who reads the role and who changes it. */
  acl: Acl
  createdAt: Date
  updatedAt: Date
  userCount: number
  roleCount: number
}

/** One role with its members. */
export interface Role extends RoleSummary {
  /** Ids of the users in it directly (the first 1000). */
  users: string[]
  /** Roles in it directly (those the caller may read): their members are its members. */
  roles: RoleRef[]
  /** Roles that contain it, directly or through others (those the caller may read). */
  parentRoles: RoleRef[]
}

const summaryFromWire = (wire: WireRoleSummary): RoleSummary => ({
  objectId: wire.objectId,
  name: wire.name,
  owner: wire.owner,
  acl: wire.acl as Acl,
  createdAt: new Date(wire.createdAt),
  updatedAt: new Date(wire.updatedAt),
  userCount: wire.userCount,
  roleCount: wire.roleCount,
})

const fromWire = (wire: WireRole): Role => ({
  ...summaryFromWire(wire),
  users: wire.users,
  roles: wire.roles,
  parentRoles: wire.parentRoles,
})

const rolePath = (name: string) => `/api/roles/${encodeURIComponent(name)}`

export interface ListRolesParameters {
  /** At most 1000 (server default 100). */
  limit?: number | undefined
  skip?: number | undefined
}

export interface ListRolesReturnType {
  results: RoleSummary[]
  /** How many roles the caller may read in all. */
  count: number
}

/**
 * The roles the caller may read, by name.
 * @example const { results } = await listRoles(client)
 */
export async function listRoles(
  client: BackendClient,
  { limit, skip }: ListRolesParameters = {},
): Promise<ListRolesReturnType> {
  const answer = await client.request<RolesAnswer>('GET', '/api/roles', { query: { limit, skip } })
  return { results: answer.results.map(summaryFromWire), count: answer.count }
}

export interface CreateRoleParameters extends RoleMembers {
  /** Unique; letters, digits, spaces, "_" and "-" (at most 128). Cannot be changed later. */
  name: string
  /** Who reads and changes the role; by default its creator changes it and everyone reads it. */
  acl?: Acl | undefined
}

/**
 * Creates a role with its first members: `users` by id or wallet address (a wallet must have
 * signed in once), `roles` by name or id. A taken name is a `BackendError` with code
 * `role_name_taken` (409).
 * @example await createRole(client, { name: 'Moderators', users: ['0xAbc…'] })
 */
export async function createRole(
  client: BackendClient,
  parameters: CreateRoleParameters,
): Promise<Role> {
  const { name, acl, users, roles } = parameters
  return fromWire(
    await client.request<WireRole>('POST', '/api/roles', {
      body: {
        name,
        ...(acl === undefined ? {} : { acl }),
        ...(users === undefined ? {} : { users }),
        ...(roles === undefined ? {} : { roles }),
      },
    }),
  )
}

/** Reads a role the caller may read (404 `BackendError` otherwise). */
export async function getRole(client: BackendClient, name: string): Promise<Role> {
  return fromWire(await client.request<WireRole>('GET', rolePath(name)))
}

export interface UpdateRoleParameters {
  add?: RoleMembers | undefined
  remove?: RoleMembers | undefined
  /** Replaces the role's ACL. */
  acl?: Acl | undefined
}

/**
 * Adds and removes members and/or replaces the ACL of a role, in one change. Only those its ACL
 * lets write may (403 when the caller reads it but may not write it, 404 when they cannot read it).
 */
export async function updateRole(
  client: BackendClient,
  name: string,
  change: UpdateRoleParameters,
): Promise<Role> {
  const body = {
    ...(change.add === undefined ? {} : { add: change.add }),
    ...(change.remove === undefined ? {} : { remove: change.remove }),
    ...(change.acl === undefined ? {} : { acl: change.acl }),
  }
  return fromWire(await client.request<WireRole>('PUT', rolePath(name), { body }))
}

/**
 * Adds users (ids or wallet addresses) and roles (names or ids) to a role.
 * @example await addToRole(client, 'Moderators', { users: [userId], roles: ['Admins'] })
 */
export function addToRole(client: BackendClient, name: string, members: RoleMembers) {
  return updateRole(client, name, { add: members })
}

/** Removes users (ids or wallet addresses) and roles (names or ids) from a role. */
export function removeFromRole(client: BackendClient, name: string, members: RoleMembers) {
  return updateRole(client, name, { remove: members })
}

/** Deletes a role: its members lose what ACLs gave the role. */
export async function deleteRole(client: BackendClient, name: string): Promise<void> {
  await client.request('DELETE', rolePath(name))
}
