// The request and answer shapes of the Portico HTTP API as JSON schemas, written once: the
// server validates requests and serialises answers with them (and the OpenAPI document comes
// from them), and the SDK's types are derived from them (types.ts).

const iso = { type: 'string', format: 'date-time' } as const

/** An object as answered: the envelope, then the document's fields under `data`. */
/** A Parse ACL: `*`, user ids and `role:<name>`, each with `read` and/or `write`. */
export const aclSchema = {
  type: 'object',
  description:
    'Who reads and writes the object: "*" (everyone), user ids and "role:<name>", each { "read": true, "write": true }',
  maxProperties: 128,
  additionalProperties: {
    type: 'object',
    properties: { read: { type: 'boolean' }, write: { type: 'boolean' } },
    additionalProperties: false,
  },
} as const

export const objectSchema = {
  type: 'object',
  properties: {
    objectId: { type: 'string' },
    className: { type: 'string' },
    owner: { type: 'string', description: 'Id of the user who created it' },
    acl: aclSchema,
    publicRead: { type: 'boolean', description: 'Whether the ACL lets everyone read it' },
    createdAt: iso,
    updatedAt: iso,
    data: { type: 'object', additionalProperties: true },
  },
  required: [
    'objectId',
    'className',
    'owner',
    'acl',
    'publicRead',
    'createdAt',
    'updatedAt',
    'data',
  ],
  additionalProperties: false,
} as const

export const createObjectBodySchema = {
  type: 'object',
  properties: { data: { type: 'object' }, acl: aclSchema, publicRead: { type: 'boolean' } },
  required: ['data'],
  additionalProperties: false,
} as const

export const updateObjectBodySchema = {
  type: 'object',
  properties: { data: { type: 'object' }, acl: aclSchema, publicRead: { type: 'boolean' } },
  additionalProperties: false,
} as const

export const queryAnswerSchema = {
  type: 'object',
  properties: {
    results: { type: 'array', items: objectSchema },
    count: { type: 'integer' },
  },
  required: ['results'],
} as const

export const batchAnswerSchema = {
  type: 'object',
  properties: {
    results: {
      type: 'array',
      items: {
        type: 'object',
        properties: { status: { type: 'integer' }, body: {} },
        required: ['status'],
        additionalProperties: false,
      },
    },
  },
  required: ['results'],
  additionalProperties: false,
} as const

export const nonceAnswerSchema = {
  type: 'object',
  properties: {
    nonce: { type: 'string' },
    serverTime: iso,
    appId: { type: 'string' },
    domain: { type: 'string' },
    uri: { type: 'string' },
    chainIds: { type: 'array', items: { type: 'integer' } },
    expiresAt: iso,
    statement: { type: 'string' },
  },
  required: ['nonce', 'serverTime', 'appId', 'domain', 'uri', 'chainIds', 'expiresAt', 'statement'],
  additionalProperties: false,
} as const

export const verifyBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    message: { type: 'string', minLength: 1, maxLength: 4096 },
    signature: { type: 'string', pattern: '^0x[0-9a-fA-F]*$', maxLength: 20_000 },
    mode: { type: 'string', enum: ['cookie', 'bearer'] },
  },
  required: ['message', 'signature'],
} as const

/** Every address that signs in as the user (checksummed): the primary first, then linked ones. */
const userAddresses = { type: 'array', items: { type: 'string' } } as const

/** The user's console role, absent for everyone else (ADMIN_ADDRESSES, VIEWER_ADDRESSES). */
const consoleRole = {
  type: 'string',
  enum: ['admin', 'viewer'],
  description: 'Set for the site team: admins change, viewers look. Absent for everyone else.',
} as const

export const signInAnswerSchema = {
  type: 'object',
  properties: {
    user: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        address: { type: 'string', description: "The user's primary (first) address." },
        addresses: userAddresses,
        role: consoleRole,
      },
      required: ['id', 'address'],
      additionalProperties: false,
    },
    session: {
      type: 'object',
      properties: { id: { type: 'string' }, expiresAt: iso },
      required: ['id', 'expiresAt'],
      additionalProperties: false,
    },
    token: { type: 'string', description: 'Only in bearer mode: send as `Authorization: Bearer`.' },
  },
  required: ['user', 'session'],
  additionalProperties: false,
} as const

export const sessionAnswerSchema = {
  type: 'object',
  properties: {
    user: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        address: { type: 'string', description: "The user's primary (first) address." },
        addresses: userAddresses,
        role: consoleRole,
        firstSignInAt: iso,
        lastSignInAt: iso,
      },
      required: ['id', 'address', 'firstSignInAt', 'lastSignInAt'],
      additionalProperties: false,
    },
    session: {
      type: 'object',
      properties: { id: { type: 'string' }, chainId: { type: 'integer' }, expiresAt: iso },
      required: ['id', 'chainId', 'expiresAt'],
      additionalProperties: false,
    },
  },
  required: ['user', 'session'],
  additionalProperties: false,
} as const

export const sessionsAnswerSchema = {
  type: 'object',
  properties: {
    sessions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          createdAt: iso,
          lastSeenAt: iso,
          expiresAt: iso,
          userAgent: { type: ['string', 'null'] },
          chainId: { type: 'integer' },
          current: { type: 'boolean' },
        },
        required: ['id', 'createdAt', 'lastSeenAt', 'expiresAt', 'userAgent', 'chainId', 'current'],
        additionalProperties: false,
      },
    },
  },
  required: ['sessions'],
  additionalProperties: false,
} as const

/** `POST /api/auth/link`: a sign-in message and signature from the wallet to link. */
export const linkWalletBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    message: { type: 'string', minLength: 1, maxLength: 4096 },
    signature: { type: 'string', pattern: '^0x[0-9a-fA-F]*$', maxLength: 20_000 },
  },
  required: ['message', 'signature'],
} as const

/** The signed-in user's wallets: each signs in as them. */
export const linkedWalletsAnswerSchema = {
  type: 'object',
  properties: {
    wallets: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          address: { type: 'string', description: 'Checksummed.' },
          linkedAt: iso,
          primary: { type: 'boolean', description: 'The first address, shown for the user.' },
        },
        required: ['address', 'linkedAt', 'primary'],
        additionalProperties: false,
      },
    },
  },
  required: ['wallets'],
  additionalProperties: false,
} as const

/** Event names: one printable line. */
const eventName = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
} as const
/** Subdomains: a host name as `location.hostname` gives it. */
const subdomain = { type: 'string', maxLength: 253, pattern: '^[A-Za-z0-9.:\\[\\]-]*$' } as const

export const eventBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    subdomain: { ...subdomain, description: 'Host name of the page, e.g. location.hostname' },
    event: eventName,
    options: {
      type: 'object',
      maxProperties: 50,
      propertyNames: { maxLength: 100 },
      description: 'Free-form details, at most 50 keys and 4096 bytes of JSON',
    },
  },
  required: ['subdomain', 'event'],
} as const

export const eventStatsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: { ...iso, description: 'Default: 30 days before `to`' },
    to: { ...iso, description: 'Default: now' },
    bucket: { type: 'string', enum: ['hour', 'day'], default: 'day' },
    subdomain,
    event: eventName,
  },
} as const

export const eventStatsSchema = {
  type: 'object',
  properties: {
    buckets: {
      type: 'array',
      items: {
        type: 'object',
        properties: { start: iso, count: { type: 'integer' } },
        required: ['start', 'count'],
        additionalProperties: false,
      },
    },
    events: {
      type: 'array',
      items: {
        type: 'object',
        properties: { event: { type: 'string' }, count: { type: 'integer' } },
        required: ['event', 'count'],
        additionalProperties: false,
      },
    },
    subdomains: {
      type: 'array',
      items: {
        type: 'object',
        properties: { subdomain: { type: 'string' }, count: { type: 'integer' } },
        required: ['subdomain', 'count'],
        additionalProperties: false,
      },
    },
    total: { type: 'integer' },
  },
  required: ['buckets', 'events', 'subdomains', 'total'],
  additionalProperties: false,
} as const
