// The admin console's API (`/api/admin/*`) as JSON schemas, written once: the server validates
// requests with them and types its routes from them, and the web console's client types each
// call by its path (console-types.ts). Each route names its `params`, `querystring`, `body` and
// `answer` (what a success answers).

import { aclSchema, objectSchema, queryAnswerSchema } from './schemas.ts'
import {
  createRoleBodySchema,
  roleParamsSchema,
  rolePageSchema,
  roleSchema,
  rolesAnswerSchema,
  updateRoleBodySchema,
} from './roles.ts'

const iso = { type: 'string', format: 'date-time' } as const
const isoOrNull = { type: ['string', 'null'] } as const

// Field types, each written once.

/** A number in a query string (`limit`, `skip`, `before`). */
const consoleDigits = { type: 'string', pattern: '^[0-9]{1,9}$' } as const
/** Ids of users, sessions and API keys. */
const consoleRecordId = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,80}$' } as const
const className = { type: 'string', maxLength: 64 } as const
const objectId = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const
const fieldName = { type: 'string', maxLength: 64 } as const
/** A contract watch's table, or a cloud code job: a letter, then letters, digits and `_`. */
const shortName = { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' } as const
/** A stored file's name: 16 characters of its own, `_`, then the name it was uploaded with. */
const storedFileName = {
  type: 'string',
  pattern: '^[A-Za-z0-9_-]{16}_[A-Za-z0-9][A-Za-z0-9._-]{0,127}$',
} as const
const logLevel = { type: 'string', enum: ['info', 'warn', 'error'] } as const
const noContent = { type: 'null' } as const

const resultsOf = <const T extends object>(items: T) =>
  ({
    type: 'object',
    properties: { results: { type: 'array', items } },
    required: ['results'],
    additionalProperties: false,
  }) as const

/** `limit` and `skip` of a console list. */
const consolePagingQuery = {
  type: 'object',
  properties: { limit: consoleDigits, skip: consoleDigits },
  additionalProperties: false,
} as const

const classParams = { type: 'object', properties: { className }, required: ['className'] } as const
const objectParams = {
  type: 'object',
  properties: { className, objectId },
  required: ['className', 'objectId'],
} as const

// People and the server.

const userRow = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    address: { type: 'string' },
    firstSignInAt: iso,
    lastSignInAt: iso,
    activeSessions: { type: 'integer' },
    lastSeenAt: isoOrNull,
  },
  required: ['id', 'address', 'firstSignInAt', 'lastSignInAt', 'activeSessions', 'lastSeenAt'],
} as const

const sessionRow = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    chainId: { type: 'integer' },
    userAgent: { type: ['string', 'null'] },
    createdAt: iso,
    lastSeenAt: iso,
    expiresAt: iso,
    revokedAt: isoOrNull,
  },
  required: ['id', 'chainId', 'userAgent', 'createdAt', 'lastSeenAt', 'expiresAt', 'revokedAt'],
} as const

const apiKeyRow = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    label: { type: 'string' },
    createdAt: iso,
    revokedAt: isoOrNull,
    lastUsedAt: isoOrNull,
  },
  required: ['id', 'label', 'createdAt', 'revokedAt', 'lastUsedAt'],
} as const

const settingRow = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    value: { type: 'string' },
    source: { type: 'string', enum: ['environment', 'default'] },
    secret: { type: 'boolean' },
  },
  required: ['name', 'value', 'source', 'secret'],
} as const

const auditEntry = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    at: iso,
    actor: { type: 'string' },
    action: { type: 'string' },
    target: { type: 'string' },
    before: {},
    after: {},
  },
  required: ['id', 'at', 'actor', 'action', 'target', 'before', 'after'],
} as const

const people = {
  'GET /api/admin/me': {
    answer: {
      type: 'object',
      properties: {
        address: { type: 'string' },
        role: { type: 'string', enum: ['admin', 'viewer'] },
        signedInAt: iso,
      },
      required: ['address', 'role', 'signedInAt'],
    },
  },
  'GET /api/admin/overview': {
    answer: {
      type: 'object',
      properties: {
        users: { type: 'integer' },
        activeSessions: { type: 'integer' },
        classes: {
          type: 'array',
          items: {
            type: 'object',
            properties: { className: { type: 'string' }, count: { type: 'integer' } },
            required: ['className', 'count'],
          },
        },
        files: {
          type: 'object',
          properties: { count: { type: 'integer' }, bytes: { type: 'integer' } },
          required: ['count', 'bytes'],
        },
        eventsToday: { type: 'integer' },
      },
      required: ['users', 'activeSessions', 'classes', 'files', 'eventsToday'],
    },
  },
  'GET /api/admin/users': {
    querystring: {
      type: 'object',
      properties: {
        search: { type: 'string', maxLength: 42 },
        limit: consoleDigits,
        skip: consoleDigits,
      },
      additionalProperties: false,
    },
    answer: resultsOf(userRow),
  },
  'GET /api/admin/users/:userId/sessions': {
    params: { type: 'object', properties: { userId: consoleRecordId }, required: ['userId'] },
    answer: resultsOf(sessionRow),
  },
  'POST /api/admin/sessions/:sessionId/revoke': {
    params: { type: 'object', properties: { sessionId: consoleRecordId }, required: ['sessionId'] },
    answer: {
      type: 'object',
      properties: { revoked: { type: 'integer' } },
      required: ['revoked'],
    },
  },
  'POST /api/admin/users/:userId/revoke-sessions': {
    params: { type: 'object', properties: { userId: consoleRecordId }, required: ['userId'] },
    answer: {
      type: 'object',
      properties: { revoked: { type: 'integer' } },
      required: ['revoked'],
    },
  },
  'GET /api/admin/api-keys': { answer: resultsOf(apiKeyRow) },
  'POST /api/admin/api-keys': {
    body: {
      type: 'object',
      properties: { label: { type: 'string', minLength: 1, maxLength: 100 } },
      required: ['label'],
      additionalProperties: false,
    },
    answer: {
      type: 'object',
      properties: { id: { type: 'string' }, key: { type: 'string' } },
      required: ['id', 'key'],
    },
  },
  'POST /api/admin/api-keys/:keyId/revoke': {
    params: { type: 'object', properties: { keyId: consoleRecordId }, required: ['keyId'] },
    answer: {
      type: 'object',
      properties: { revoked: { type: 'boolean' } },
      required: ['revoked'],
    },
  },
  'GET /api/admin/settings': { answer: resultsOf(settingRow) },
  'GET /api/admin/audit': {
    querystring: {
      type: 'object',
      properties: { limit: consoleDigits, before: consoleDigits },
      additionalProperties: false,
    },
    answer: resultsOf(auditEntry),
  },
} as const

// Contract-event syncs.

const syncRow = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    kind: {
      type: 'string',
      enum: ['site', 'watch'],
      description: 'Declared by the site (`defineSync`), or a watch made at run time',
    },
    chainId: { type: 'integer' },
    className: { type: 'string' },
    addresses: { type: 'array', items: { type: 'string' } },
    events: { type: 'array', items: { type: 'string' } },
    filter: {},
    createdAt: isoOrNull,
    writer: { type: 'string', enum: ['this process', 'another process'] },
    mode: { enum: ['starting', 'backfill', 'following', null] },
    nextBlock: { type: ['string', 'null'] },
    head: { type: ['string', 'null'] },
    blocksLeft: { type: ['string', 'null'] },
    eventsPerSecond: { type: ['number', 'null'] },
    rows: { type: 'integer' },
    lastError: { type: ['string', 'null'] },
    updatedAt: isoOrNull,
  },
  required: [
    'name',
    'kind',
    'chainId',
    'className',
    'addresses',
    'events',
    'filter',
    'createdAt',
    'writer',
    'mode',
    'nextBlock',
    'head',
    'blocksLeft',
    'eventsPerSecond',
    'rows',
    'lastError',
    'updatedAt',
  ],
} as const

const syncs = {
  'GET /api/admin/syncs': {
    answer: {
      type: 'object',
      properties: { processId: { type: 'string' }, results: { type: 'array', items: syncRow } },
      required: ['processId', 'results'],
    },
  },
  'DELETE /api/admin/watches/:tableName': {
    params: { type: 'object', properties: { tableName: shortName }, required: ['tableName'] },
    answer: noContent,
  },
} as const

// Files.

const fileRow = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    owner: { type: 'string' },
    contentType: { type: 'string' },
    size: { type: 'integer' },
    storage: { type: 'string', enum: ['database', 's3'] },
    createdAt: iso,
  },
  required: ['name', 'owner', 'contentType', 'size', 'storage', 'createdAt'],
} as const

const files = {
  'GET /api/admin/files': { querystring: consolePagingQuery, answer: resultsOf(fileRow) },
  'DELETE /api/admin/files/:name': {
    params: { type: 'object', properties: { name: storedFileName }, required: ['name'] },
    answer: noContent,
  },
} as const

// Cloud code.

/** Largest params a job is started with, as JSON. */
export const MAX_JOB_PARAMS_BYTES = 64 * 1024

const jobLogLine = {
  type: 'object',
  properties: { time: { type: 'string' }, level: logLevel, message: { type: 'string' } },
  required: ['time', 'level', 'message'],
  additionalProperties: false,
} as const

const jobRun = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    jobName: { type: 'string' },
    source: { type: 'string', enum: ['api', 'console'] },
    status: { type: 'string', enum: ['running', 'succeeded', 'failed'] },
    message: { type: 'string' },
    params: { type: 'object', additionalProperties: true },
    startedAt: isoOrNull,
    finishedAt: isoOrNull,
    log: { type: 'array', items: jobLogLine },
  },
  required: [
    'id',
    'jobName',
    'source',
    'status',
    'message',
    'params',
    'startedAt',
    'finishedAt',
    'log',
  ],
  additionalProperties: false,
} as const

const consoleLogLine = {
  type: 'object',
  properties: {
    time: { type: 'string' },
    level: logLevel,
    source: {
      type: 'string',
      enum: ['cloud', 'server'],
      description: "cloud: cloud code's logger; server: the server's own warnings and errors",
    },
    message: { type: 'string' },
    requestId: { type: 'string' },
    jobId: { type: 'string' },
  },
  required: ['time', 'level', 'source', 'message'],
  additionalProperties: false,
} as const

const cloud = {
  'GET /api/admin/cloud': {
    answer: {
      type: 'object',
      properties: {
        configured: { type: 'boolean', description: 'Whether CLOUD_CODE names cloud code to load' },
        functions: { type: 'array', items: { type: 'string' } },
        triggers: {
          type: 'array',
          items: { type: 'string' },
          description: 'Each trigger as "<kind> <class>", e.g. "beforeSave Note"',
        },
        jobs: { type: 'array', items: { type: 'string' } },
      },
      required: ['configured', 'functions', 'triggers', 'jobs'],
      additionalProperties: false,
    },
  },
  'POST /api/admin/cloud/jobs/:name': {
    params: {
      type: 'object',
      properties: { name: shortName },
      required: ['name'],
      additionalProperties: false,
    },
    body: {
      type: 'object',
      properties: {
        params: {
          type: 'object',
          additionalProperties: true,
          description: `What the job's request.params holds (a JSON object, at most ${MAX_JOB_PARAMS_BYTES / 1024} KB)`,
        },
      },
      additionalProperties: false,
    },
    answer: {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    },
  },
  'GET /api/admin/cloud/runs': {
    querystring: consolePagingQuery,
    answer: {
      type: 'object',
      properties: {
        results: { type: 'array', items: jobRun },
        hasMore: { type: 'boolean', description: 'Whether older runs follow this page' },
      },
      required: ['results', 'hasMore'],
      additionalProperties: false,
    },
  },
  'GET /api/admin/logs': {
    querystring: {
      type: 'object',
      properties: {
        level: { ...logLevel, description: 'This level or above' },
        text: { type: 'string', maxLength: 200, description: 'Lines containing this (any case)' },
        limit: consoleDigits,
      },
      additionalProperties: false,
    },
    answer: resultsOf(consoleLogLine),
  },
} as const

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
    },
  },
  required: ['className', 'writers', 'sync', 'newObject'],
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
} as const

const classes = {
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

const objects = {
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
} as const

// Roles, as the console reads and changes them whatever their ACL.

/** A role as the console shows it: its users with their (primary) wallet address. */
const consoleRole = {
  ...roleSchema,
  properties: {
    ...roleSchema.properties,
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

const roles = {
  'GET /api/admin/roles': { querystring: rolePageSchema, answer: rolesAnswerSchema },
  'GET /api/admin/roles/:name': { params: roleParamsSchema, answer: consoleRole },
  'POST /api/admin/roles': {
    body: {
      ...createRoleBodySchema,
      properties: {
        ...createRoleBodySchema.properties,
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
    params: roleParamsSchema,
    body: updateRoleBodySchema,
    answer: consoleRole,
  },
  'DELETE /api/admin/roles/:name': { params: roleParamsSchema, answer: noContent },
} as const

/** Every console route the schemas above describe, by `METHOD /path`. */
export const consoleRoutes = {
  ...people,
  ...syncs,
  ...files,
  ...cloud,
  ...classes,
  ...objects,
  ...roles,
} as const
