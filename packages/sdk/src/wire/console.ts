// The admin console's API (`/api/admin/*`) as JSON schemas, written once: the server validates
// requests with them and types its routes from them, and the web console's client types each
// call by its path (console-types.ts). Each route names its `params`, `querystring`, `body` and
// `answer` (what a success answers).

import {
  consoleChainId,
  consoleDigits,
  consolePagingQuery,
  consoleRecordId,
  iso,
  isoOrNull,
  logLevel,
  noContent,
  objectId,
  shortName,
  storedFileName,
} from './console-fields.ts'
import { classes, creates, objects, roles } from './console-data.ts'
import { imports } from './console-import.ts'

export { BULK_DELETE_MAX, FIELD_TYPES } from './console-data.ts'
export { consoleImportLineSchema } from './console-import.ts'

/** A list answer: `{ results: [...] }`. */
const resultsOf = <const T extends object>(items: T) =>
  ({
    type: 'object',
    properties: { results: { type: 'array', items } },
    required: ['results'],
    additionalProperties: false,
  }) as const

// People and the server.

const userRow = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    address: {
      type: ['string', 'null'],
      description: 'Null for a user who signs in without a wallet',
    },
    firstSignInAt: iso,
    lastSignInAt: iso,
    activeSessions: { type: 'integer' },
    lastSeenAt: isoOrNull,
  },
  required: ['id', 'address', 'firstSignInAt', 'lastSignInAt', 'activeSessions', 'lastSeenAt'],
  additionalProperties: false,
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
  additionalProperties: false,
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
  additionalProperties: false,
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
  additionalProperties: false,
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
  additionalProperties: false,
} as const

const userParams = {
  type: 'object',
  properties: { userId: consoleRecordId },
  required: ['userId'],
} as const

/** How many sessions a revocation ended. */
const revokedCount = {
  type: 'object',
  properties: { revoked: { type: 'integer' } },
  required: ['revoked'],
  additionalProperties: false,
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
      additionalProperties: false,
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
      additionalProperties: false,
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
    params: userParams,
    answer: resultsOf(sessionRow),
  },
  'POST /api/admin/sessions/:sessionId/revoke': {
    params: { type: 'object', properties: { sessionId: consoleRecordId }, required: ['sessionId'] },
    answer: revokedCount,
  },
  'POST /api/admin/users/:userId/revoke-sessions': {
    params: userParams,
    answer: revokedCount,
  },
  'DELETE /api/admin/users/:userId': {
    params: { type: 'object', properties: { userId: objectId }, required: ['userId'] },
    answer: noContent,
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
      properties: {
        id: { type: 'string' },
        label: { type: 'string', description: 'The label as kept: trimmed' },
        key: { type: 'string', description: 'The key, shown this once' },
      },
      required: ['id', 'label', 'key'],
      additionalProperties: false,
    },
  },
  'POST /api/admin/api-keys/:keyId/revoke': {
    params: { type: 'object', properties: { keyId: consoleRecordId }, required: ['keyId'] },
    answer: {
      type: 'object',
      properties: { revoked: { type: 'boolean' } },
      required: ['revoked'],
      additionalProperties: false,
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
  additionalProperties: false,
} as const

const syncs = {
  'GET /api/admin/syncs': {
    answer: {
      type: 'object',
      properties: { processId: { type: 'string' }, results: { type: 'array', items: syncRow } },
      required: ['processId', 'results'],
      additionalProperties: false,
    },
  },
  'DELETE /api/admin/watches/:tableName': {
    params: { type: 'object', properties: { tableName: shortName }, required: ['tableName'] },
    answer: noContent,
  },
} as const

// The address index (what each wallet holds and did, read by Moralis v1's wallet-wide Web3 API
// functions) and the Web3 API's calls.

/** A chain of the address index: where it stands (the health output's part too). */
const addressIndexChain = {
  type: 'object',
  properties: {
    chainId: { type: 'integer' },
    mode: { type: 'string', enum: ['starting', 'backfill', 'following'] },
    writer: { type: 'boolean', description: 'This process writes it (else another does)' },
    head: { type: ['string', 'null'] },
    addresses: { type: 'integer', description: 'Addresses indexed' },
    syncing: { type: 'integer', description: 'Addresses whose history is not read to the head' },
    rows: { type: 'integer', description: 'Rows this process wrote since it started' },
    lastError: { type: ['string', 'null'] },
  },
  required: ['chainId', 'mode', 'writer', 'head', 'addresses', 'syncing', 'rows', 'lastError'],
  additionalProperties: false,
} as const

const indexedAddress = {
  type: 'object',
  properties: {
    chainId: { type: 'integer' },
    address: {
      type: 'string',
      description:
        'Lowercase; `*` is the row that carries the progress when every address is indexed',
    },
    source: {
      type: 'string',
      enum: ['user', 'watch', 'asked', 'every'],
      description:
        'Why it is indexed: a wallet of a user, watched, asked about by a Web3 API call, or every address',
    },
    nextBlock: { type: 'string', description: 'The next block its history is read from' },
    status: {
      type: 'string',
      enum: ['SYNCED', 'SYNCING'],
      description: 'SYNCED once its history is read to the head',
    },
    createdAt: iso,
  },
  required: ['chainId', 'address', 'source', 'nextBlock', 'status', 'createdAt'],
  additionalProperties: false,
} as const

const web3apiFunction = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    calls: { type: 'integer' },
    errors: { type: 'integer', description: 'Calls refused or failed' },
    totalSeconds: { type: 'number' },
    averageSeconds: { type: 'number' },
    maxSeconds: { type: 'number' },
  },
  required: ['name', 'calls', 'errors', 'totalSeconds', 'averageSeconds', 'maxSeconds'],
  additionalProperties: false,
} as const

/** Most addresses a page of `GET /api/admin/address-index` lists. */
export const ADDRESS_INDEX_PAGE = 1000

const web3 = {
  'GET /api/admin/address-index': {
    querystring: {
      type: 'object',
      properties: {
        chainId: {
          ...consoleChainId,
          description: 'The chain whose addresses are listed (default: the first)',
        },
        after: {
          type: 'string',
          maxLength: 42,
          description: 'The last address of the previous page: the page after it',
        },
      },
      additionalProperties: false,
    },
    answer: {
      type: 'object',
      properties: {
        chains: { type: 'array', items: addressIndexChain },
        addresses: {
          type: 'array',
          items: indexedAddress,
          description: `The chain's indexed addresses in order, at most ${ADDRESS_INDEX_PAGE}`,
        },
      },
      required: ['chains', 'addresses'],
      additionalProperties: false,
    },
  },
  'GET /api/admin/web3api': {
    answer: {
      type: 'object',
      properties: {
        processId: { type: 'string' },
        since: { ...iso, description: 'When this process started counting' },
        results: { type: 'array', items: web3apiFunction, description: 'The most called first' },
        addressIndex: {
          type: ['object', 'null'],
          properties: { chainIds: { type: 'array', items: { type: 'integer' } } },
          required: ['chainIds'],
          additionalProperties: false,
          description: 'The chains the address index keeps (null: ADDRESS_INDEX_CHAINS is not set)',
        },
        addressEndpoints: {
          type: 'array',
          items: { type: 'string' },
          description: 'The functions answered from the address index',
        },
      },
      required: ['processId', 'since', 'results', 'addressIndex', 'addressEndpoints'],
      additionalProperties: false,
    },
  },
} as const

// Files.

const fileRow = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    owner: {
      type: ['string', 'null'],
      description: "The owner's wallet address (null: they sign in without a wallet)",
    },
    ownerId: { type: 'string' },
    contentType: { type: 'string' },
    size: { type: 'integer' },
    storage: { type: 'string', enum: ['database', 's3'] },
    createdAt: iso,
  },
  required: ['name', 'owner', 'ownerId', 'contentType', 'size', 'storage', 'createdAt'],
  additionalProperties: false,
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

export const consoleRoutes = {
  ...people,
  ...syncs,
  ...web3,
  ...files,
  ...cloud,
  ...classes,
  ...objects,
  ...imports,
  ...roles,
  ...creates,
} as const
