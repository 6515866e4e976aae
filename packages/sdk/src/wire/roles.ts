import { aclSchema } from './schemas.ts'

// Roles (`/api/roles`): named groups of users that ACLs name as `role:<name>`. A role's members
// are its users and the members of the roles it contains (its child roles), through any depth.

const iso = { type: 'string', format: 'date-time' } as const

/** A role's name: unique, set once; letters, digits, spaces, "_" and "-". */
export const roleNameSchema = {
  type: 'string',
  pattern: '^[0-9a-zA-Z_\\- ]{1,128}$',
  description: 'Letters, digits, spaces, "_" and "-" (at most 128)',
} as const

/** A user named in a request: their user id, or a wallet address that has signed in. */
const userEntry = {
  type: 'string',
  pattern: '^[A-Za-z0-9_-]{1,80}$',
  description: 'A user id, or a wallet address (0x…) that has signed in once',
} as const
/** A role named in a request: its name, or its id. */
const roleEntry = { ...roleNameSchema, description: "A role's name, or its id" } as const

/** Most users one request adds or removes (and most listed in a role's answer). */
export const MAX_ROLE_USERS = 1000
/** Most child roles one request adds or removes. */
export const MAX_ROLE_ROLES = 100

/** Users and child roles, as a request names them. */
export const roleMembersSchema = {
  type: 'object',
  properties: {
    users: { type: 'array', items: userEntry, maxItems: MAX_ROLE_USERS },
    roles: { type: 'array', items: roleEntry, maxItems: MAX_ROLE_ROLES },
  },
  additionalProperties: false,
} as const

const roleRef = {
  type: 'object',
  properties: { objectId: { type: 'string' }, name: { type: 'string' } },
  required: ['objectId', 'name'],
  additionalProperties: false,
} as const

const summaryProperties = {
  objectId: { type: 'string' },
  name: { type: 'string' },
  owner: { type: 'string', description: 'Id of the user who created it' },
  acl: { ...aclSchema, description: 'Who reads the role and who changes it (and its members)' },
  createdAt: iso,
  updatedAt: iso,
  userCount: { type: 'integer', description: 'Users in it directly' },
  roleCount: { type: 'integer', description: 'Roles in it directly (their members are in it)' },
} as const
const summaryRequired = [
  'objectId',
  'name',
  'owner',
  'acl',
  'createdAt',
  'updatedAt',
  'userCount',
  'roleCount',
] as const

/** A role in a list: with how many users and child roles it holds directly. */
export const roleSummarySchema = {
  type: 'object',
  properties: summaryProperties,
  required: summaryRequired,
  additionalProperties: false,
} as const

/** One role, with its members and the roles its members are in through it. */
export const roleSchema = {
  type: 'object',
  properties: {
    ...summaryProperties,
    users: {
      type: 'array',
      items: { type: 'string' },
      description: `Ids of the users in it directly (the first ${MAX_ROLE_USERS}, sorted)`,
    },
    roles: {
      type: 'array',
      items: roleRef,
      description: 'Roles in it directly, those you may read: their members are members of it',
    },
    parentRoles: {
      type: 'array',
      items: roleRef,
      description:
        'Roles that contain it, directly or through others, those you may read: its members are members of them',
    },
  },
  required: [...summaryRequired, 'users', 'roles', 'parentRoles'],
  additionalProperties: false,
} as const

export const rolesAnswerSchema = {
  type: 'object',
  properties: {
    results: { type: 'array', items: roleSummarySchema },
    count: { type: 'integer' },
  },
  required: ['results', 'count'],
  additionalProperties: false,
} as const

/** `POST /api/roles`: a new role, with its first members. */
export const createRoleBodySchema = {
  type: 'object',
  properties: {
    name: roleNameSchema,
    acl: {
      ...aclSchema,
      description:
        'Who reads the role and who changes it; by default its creator reads and changes it, everyone reads it',
    },
    ...roleMembersSchema.properties,
  },
  required: ['name'],
  additionalProperties: false,
} as const

/** `PUT /api/roles/:name`: members added and removed, and/or a new ACL, in one change. */
export const updateRoleBodySchema = {
  type: 'object',
  properties: {
    add: roleMembersSchema,
    remove: roleMembersSchema,
    acl: aclSchema,
  },
  additionalProperties: false,
} as const

/** The path of one role: `/…/roles/:name`. */
export const roleParamsSchema = {
  type: 'object',
  properties: { name: roleNameSchema },
  required: ['name'],
} as const

/** A page of roles: `limit` (at most 1000, default 100) and `skip`. */
export const rolePageSchema = {
  type: 'object',
  properties: {
    limit: { type: 'string', pattern: '^[0-9]{1,9}$', description: 'at most 1000 (default 100)' },
    skip: { type: 'string', pattern: '^[0-9]{1,9}$' },
  },
  additionalProperties: false,
} as const
