import {
  createRoleBodySchema,
  roleParamsSchema,
  rolePageSchema,
  roleSchema,
  rolesAnswerSchema,
  updateRoleBodySchema,
} from '@portico/sdk/wire'
import { errorBodySchema } from '../errors.ts'

// JSON schemas of the role routes: Fastify validates with them and the OpenAPI document is
// generated from them. The shapes of bodies and answers are the shared wire contract.

const tags = ['roles']
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
} as const
export const roleParams = roleParamsSchema
export const rolePage = rolePageSchema

export const roleSchemas = {
  list: {
    tags,
    summary: 'The roles the caller may read, by name, with how many users and roles each holds',
    querystring: rolePage,
    response: { 200: rolesAnswerSchema, ...errors },
  },
  create: {
    tags,
    summary:
      'Create a role with its first users (ids or wallet addresses) and child roles; by default its creator changes it and everyone reads it',
    body: createRoleBodySchema,
    response: { 201: roleSchema, ...errors, 409: errorBodySchema },
  },
  get: {
    tags,
    summary: 'Read a role (if its ACL lets the caller): its users, child roles and parent roles',
    params: roleParams,
    response: { 200: roleSchema, ...errors },
  },
  update: {
    tags,
    summary:
      "Add and remove a role's users and child roles, and/or replace its ACL (those its ACL lets write)",
    params: roleParams,
    body: updateRoleBodySchema,
    response: { 200: roleSchema, ...errors },
  },
  delete: {
    tags,
    summary: 'Delete a role (those its ACL lets write): its members lose what it gave them',
    params: roleParams,
    response: { 204: { type: 'null' }, ...errors },
  },
} as const
