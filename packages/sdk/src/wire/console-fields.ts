// The field types of the console API's schemas (console.ts), each written once.

export const iso = { type: 'string', format: 'date-time' } as const
export const isoOrNull = { type: ['string', 'null'] } as const

/** A number in a query string (`limit`, `skip`, `before`). */
export const consoleDigits = { type: 'string', pattern: '^[0-9]{1,9}$' } as const
/** A chain id in a query string (some have ten digits and more). */
export const consoleChainId = { type: 'string', pattern: '^[0-9]{1,15}$' } as const
/** Ids of users, sessions and API keys. */
export const consoleRecordId = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,80}$' } as const
export const className = { type: 'string', maxLength: 64 } as const
export const objectId = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const
export const fieldName = { type: 'string', maxLength: 64 } as const
/** A contract watch's table, or a cloud code job: a letter, then letters, digits and `_`. */
export const shortName = { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' } as const
/** A stored file's name: 16 characters of its own, `_`, then the name it was uploaded with. */
export const storedFileName = {
  type: 'string',
  pattern: '^[A-Za-z0-9_-]{16}_[A-Za-z0-9][A-Za-z0-9._-]{0,127}$',
} as const
export const logLevel = { type: 'string', enum: ['info', 'warn', 'error'] } as const
export const noContent = { type: 'null' } as const

/** `limit` and `skip` of a console list. */
export const consolePagingQuery = {
  type: 'object',
  properties: { limit: consoleDigits, skip: consoleDigits },
  additionalProperties: false,
} as const

export const classParams = {
  type: 'object',
  properties: { className },
  required: ['className'],
} as const
export const objectParams = {
  type: 'object',
  properties: { className, objectId },
  required: ['className', 'objectId'],
} as const
