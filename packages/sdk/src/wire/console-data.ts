// The console API's routes over a class's data (console.ts names them all): its columns,
// defaults and indexes, its objects, and roles.

import { aclSchema, objectSchema, queryAnswerSchema } from './schemas.ts'
import * as role from './roles.ts'
import {
  classParams,
  className,
  consoleDigits,
  consoleRecordId,
  fieldName,
  iso,
  noContent,
  objectId,
  objectParams,
} from './console-fields.ts'

// A class's columns, defaults and indexes, and changes over many objects.

export const FIELD_TYPES = [
  'string',
  'number',
  'boolean',
  'date',
  'pointer',
  'relation',
  'file',
  'geopoint',
  'polygon',
  'bytes',
  'array',
  'object',
] as const

/** A column the console declares before any object has a value in it. */
const declaredFieldSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: [...FIELD_TYPES] },
    targetClass: {
      type: 'string',
      maxLength: 64,
      description: 'The class a pointer or relation names',
    },
  },
  required: ['type'],
  additionalProperties: false,
} as const

const fieldsAnswer = {
  type: 'object',
  properties: { fields: { type: 'object', additionalProperties: declaredFieldSchema } },
  required: ['fields'],
} as const

/** Most objects one bulk delete names: a page of the browser at its largest. */
export const BULK_DELETE_MAX = 200

const classDefaultsSchema = {
  type: 'object',
  properties: {
    className: { type: 'string' },
    writers: { type: 'string', enum: ['users', 'sync'] },
    sync: { type: ['string', 'null'] },
    newObject: {
      type: 'object',
      properties: {
        creator: { type: 'string', enum: ['read-write', 'none'] },
        public: { type: 'string', enum: ['read', 'none', 'on-request'] },
      },
      required: ['creator', 'public'],
      additionalProperties: false,
    },
  },
  required: ['className', 'writers', 'sync', 'newObject'],
  additionalProperties: false,
} as const

const fieldIndex = {
  type: 'object',
  properties: {
    field: {
      type: 'string',
      description:
        'The field it is on, or for a composite the equality fields, then `|` and the order field (`-` descending)',
    },
    indexName: { type: 'string' },
    createdAt: iso,
    scans: {
      type: 'integer',
      description: 'Times the database read it since its statistics were reset (or it started)',
    },
    bytes: { type: 'integer' },
  },
  required: ['field', 'indexName', 'createdAt', 'scans', 'bytes'],
  additionalProperties: false,
} as const

export const classes = {
  'GET /api/admin/classes/:className/fields': { params: classParams, answer: fieldsAnswer },
  'GET /api/admin/classes/:className/defaults': {
    params: classParams,
    answer: classDefaultsSchema,
  },
  'POST /api/admin/classes/:className/fields': {
    params: classParams,
    body: {
      type: 'object',
      properties: { name: fieldName, ...declaredFieldSchema.properties },
      required: ['name', 'type'],
      additionalProperties: false,
    },
    answer: fieldsAnswer,
  },
  'DELETE /api/admin/classes/:className/fields/:field': {
    params: {
      type: 'object',
      properties: { className, field: fieldName },
      required: ['className', 'field'],
    },
    answer: {
      type: 'object',
      properties: { changed: { type: 'integer' } },
      required: ['changed'],
    },
  },
  'POST /api/admin/classes/:className/delete': {
    params: classParams,
    body: {
      type: 'object',
      properties: {
        ids: {
          type: 'array',
          minItems: 1,
          maxItems: BULK_DELETE_MAX,
          uniqueItems: true,
          items: objectId,
        },
      },
      required: ['ids'],
      additionalProperties: false,
    },
    answer: {
      type: 'object',
      properties: {
        deleted: { type: 'array', items: { type: 'string' } },
        missing: { type: 'array', items: { type: 'string' } },
      },
      required: ['deleted', 'missing'],
    },
  },
  'GET /api/admin/classes/:className/indexes': {
    params: classParams,
    answer: {
      type: 'object',
      properties: { indexes: { type: 'array', items: fieldIndex } },
      required: ['indexes'],
    },
  },
  'DELETE /api/admin/classes/:className/indexes/:field': {
    params: {
      type: 'object',
      properties: {
        className,
        /** A field, or a composite's shape: `kind,tag|-score`, `score::numeric`. */
        field: { type: 'string', pattern: '^[A-Za-z0-9_,|:-]{1,300}$' },
      },
      required: ['className', 'field'],
    },
    answer: noContent,
  },
} as const

// Objects.

const whereText = {
  type: 'string',
  maxLength: 20_000,
  description: 'JSON constraints, as the SDK sends them',
} as const

/** A page of objects as the console reads it: with each owner's wallet address. */
const consolePage = {
  ...queryAnswerSchema,
  properties: {
    ...queryAnswerSchema.properties,
    owners: {
      type: 'object',
      description:
        'The wallet address of each user the page names (its owners and the users its ACLs name), by user id',
      additionalProperties: { type: 'string' },
    },
    next: {
      type: 'string',
      description:
        'Where this full page ended, to send as `after` for the next one (orders by createdAt, updatedAt or objectId)',
    },
    countCapped: {
      type: 'boolean',
      description: 'True when more objects match than `countLimit`, which is then the count',
    },
  },
} as const

/** A class anyone signed out may write. */
export const openClassRow = {
  type: 'object',
  properties: {
    className: { type: 'string' },
    create: { type: 'boolean', description: 'Clients that are not signed in may create in it' },
    write: {
      type: 'boolean',
      description: 'It holds objects that clients that are not signed in may change or delete',
    },
  },
  required: ['className', 'create', 'write'],
  additionalProperties: false,
} as const

export const objects = {
  'GET /api/admin/classes/:className': {
    params: classParams,
    querystring: {
      type: 'object',
      properties: {
        where: whereText,
        order: { type: 'string', maxLength: 400 },
        limit: consoleDigits,
        skip: consoleDigits,
        after: {
          type: 'string',
          maxLength: 400,
          description:
            "The previous page's `next`: the page after it, read from where it ended (orders by createdAt, updatedAt or objectId) instead of skipping",
        },
        count: { type: 'string', enum: ['0', '1', 'true', 'false'] },
        countLimit: {
          ...consoleDigits,
          description:
            'Count at most this many (a larger class answers this many, with `countCapped`): a count reads every match',
        },
      },
      additionalProperties: false,
    },
    answer: consolePage,
  },
  'PUT /api/admin/classes/:className/:objectId': {
    params: objectParams,
    body: {
      type: 'object',
      properties: {
        data: { type: 'object' },
        publicRead: { type: 'boolean' },
        acl: aclSchema,
        owner: {
          ...consoleRecordId,
          description: "The new owner's user id, or wallet address (0x…)",
        },
      },
      required: ['data'],
      additionalProperties: false,
    },
    answer: objectSchema,
  },
  'DELETE /api/admin/classes/:className/:objectId': { params: objectParams, answer: noContent },
  'GET /api/admin/classes/:className/export': {
    params: classParams,
    querystring: {
      type: 'object',
      properties: { format: { type: 'string', enum: ['json', 'csv'] }, where: whereText },
      additionalProperties: false,
    },
    answer: { description: 'The objects as JSON or CSV, streamed' },
  },
  'GET /api/admin/open-classes': {
    answer: {
      type: 'object',
      properties: {
        classes: {
          type: 'array',
          items: openClassRow,
        },
      },
      required: ['classes'],
    },
  },
  'POST /api/admin/classes/:className/close': {
    params: classParams,
    answer: {
      type: 'object',
      properties: { classLevelPermissions: { type: 'object', additionalProperties: true } },
      required: ['classLevelPermissions'],
    },
  },
} as const

// Creating a class and an object from the console's data browser.

export const creates = {
  'POST /api/admin/classes': {
    body: {
      type: 'object',
      properties: {
        name: { ...className, description: 'A letter, then letters, digits and _' },
        fields: {
          type: 'object',
          maxProperties: 100,
          additionalProperties: declaredFieldSchema,
          description: 'Its first columns, by name, each with its type',
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    answer: {
      type: 'object',
      properties: { className: { type: 'string' }, fields: fieldsAnswer.properties.fields },
      required: ['className', 'fields'],
    },
  },
  'POST /api/admin/classes/:className': {
    params: classParams,
    body: {
      type: 'object',
      properties: {
        data: { type: 'object' },
        acl: {
          ...aclSchema,
          description:
            "Who reads and changes it (users by id or wallet address); by default the class's defaults for a new object",
        },
      },
      required: ['data'],
      additionalProperties: false,
    },
    answer: objectSchema,
  },
} as const

// Roles, as the console reads and changes them whatever their ACL.

/** A role as the console shows it: its users with their (primary) wallet address. */
const consoleRole = {
  ...role.roleSchema,
  properties: {
    ...role.roleSchema.properties,
    users: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, address: { type: ['string', 'null'] } },
        required: ['id', 'address'],
        additionalProperties: false,
      },
      description: 'Users in it directly, with their wallet address (null: no such user any more)',
    },
  },
} as const

export const roles = {
  'GET /api/admin/roles': { querystring: role.rolePageSchema, answer: role.rolesAnswerSchema },
  'GET /api/admin/roles/:name': { params: role.roleParamsSchema, answer: consoleRole },
  'POST /api/admin/roles': {
    body: {
      ...role.createRoleBodySchema,
      properties: {
        ...role.createRoleBodySchema.properties,
        acl: {
          ...aclSchema,
          description:
            'Who reads the role and who changes it outside the console; by default everyone reads it and only the console (and the master key) changes it',
        },
      },
    },
    answer: consoleRole,
  },
  'PUT /api/admin/roles/:name': {
    params: role.roleParamsSchema,
    body: role.updateRoleBodySchema,
    answer: consoleRole,
  },
  'DELETE /api/admin/roles/:name': { params: role.roleParamsSchema, answer: noContent },
} as const

/** Every console route the schemas above describe, by `METHOD /path`. */
