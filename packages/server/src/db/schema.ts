import {
  bigint,
  check,
  customType,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'

// One schema for both drivers (PGlite and PostgreSQL); SQL migrations are generated from it
// with `npm run db:generate -w @portico/server` and committed under ./drizzle.

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
})

const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

/** A user: a wallet address that has signed in at least once, or a password user. */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  /** Checksummed primary address; null for a password user who has linked no wallet. */
  address: text('address').unique(),
  firstSignInAt: timestamp('first_sign_in_at', { withTimezone: true }).notNull().defaultNow(),
  lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Sign-in sessions. Only the SHA-256 of the token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    chainId: integer('chain_id').notNull(),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
)

/**
 * Username/password sign-in (the Parse-compatible API): a user's username, email and bcrypt
 * hash. Nothing serves this table: the hash never leaves it. Usernames and emails are unique
 * compared case-insensitively, as Parse has them.
 */
export const passwordLogins = pgTable(
  'password_logins',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    passwordHash: text('password_hash').notNull(),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true })
      .notNull()
      .defaultNow(),
  },
  (t) => [
    uniqueIndex('password_logins_username_idx').on(sql`lower(${t.username})`),
    uniqueIndex('password_logins_email_idx').on(sql`lower(${t.email})`),
  ],
)

/**
 * Single-use tokens sent by mail: a password reset, or an email address to verify. Only the
 * SHA-256 of the token is stored.
 */
export const mailTokens = pgTable(
  'mail_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['reset', 'verify'] }).notNull(),
    /** The address the mail went to: a verification holds only while it is still the user's. */
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('mail_tokens_user_idx').on(t.userId)],
)

/** Sign-in nonces: issued by the server, consumed on first use. */
export const nonces = pgTable('nonces', {
  nonce: text('nonce').primaryKey(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
})

/** API keys for the RPC gateway. Only the SHA-256 of the key is stored. */
export const apiKeys = pgTable('api_keys', {
  id: text('id').primaryKey(),
  keyHash: text('key_hash').notNull().unique(),
  label: text('label').notNull(),
  createdAt: createdAt(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  /** When the gateway last accepted it (recorded when a process first checks it, then every 30 s while in use). */
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
})

/**
 * Every change made from the admin console: who, what, when, and the record before and after.
 * The console only ever adds to it.
 */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The admin's checksummed address. */
    actor: text('actor').notNull(),
    /** What was done, e.g. `object.update`, `session.revoke`, `api_key.create`. */
    action: text('action').notNull(),
    /** What it was done to, e.g. `Note/abc123`. */
    target: text('target').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('admin_audit_at_idx').on(t.at)],
)

/** Tracked events. No IP address is stored: `visitor` is a salted, daily-rotating hash at most. */
export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subdomain: text('subdomain').notNull(),
    event: text('event').notNull(),
    options: jsonb('options').notNull().default({}),
    visitor: text('visitor'),
    userId: text('user_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('events_created_idx').on(t.createdAt),
    index('events_event_idx').on(t.event, t.createdAt),
  ],
)

/**
 * Events counted per UTC hour, subdomain and event name, kept up to date in the statement that
 * stores the events: the dashboard reads a month from about 720 rows per series instead of
 * scanning millions of events.
 */
export const eventCounts = pgTable(
  'event_counts',
  {
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    subdomain: text('subdomain').notNull(),
    event: text('event').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.subdomain, t.event] })],
)

/**
 * Objects: JSON documents in named classes. Access is the object's ACL, kept as Parse keeps it
 * on PostgreSQL: who may read and who may write, each a list of `*` (everyone), user ids and
 * `role:<name>`. The owner is the user who created it (or the server's own user for imported
 * and synced rows): it is recorded, but grants nothing the ACL does not.
 */
export const objects = pgTable(
  'objects',
  {
    className: text('class_name').notNull(),
    id: text('id').notNull(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readPerm: text('read_perm').array().notNull(),
    writePerm: text('write_perm').array().notNull(),
    data: jsonb('data').notNull(),
    /** Bytes of `data` as JSON text: a query adds these up to bound its answer before reading it. */
    size: integer('size')
      .notNull()
      .generatedAlwaysAs(sql`octet_length(data::text)`),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.className, t.id] }),
    // An owner's own objects, newest first, without a sort. This index and the next also hold
    // `read_perm` (`include`, written in their migration: the schema builder has no `include`),
    // so a count of a class, or of an owner's objects, reads the index alone.
    index('objects_owner_created_idx').on(t.className, t.ownerId, t.createdAt, t.id),
    // Pages in the default order (and newest first) read the index instead of sorting the class.
    index('objects_class_created_idx').on(t.className, t.createdAt, t.id),
    // Objects a user or role may read among many they may not.
    index('objects_read_perm_idx').using('gin', t.readPerm),
    // Role names are unique, as Parse has them.
    uniqueIndex('objects_role_name_idx')
      .on(sql`(${t.data}->>'name')`)
      .where(sql`${t.className} = '_Role'`),
  ],
)

/**
 * Members of Relation fields: object `owningId` of `className` holds `relatedId` in its relation
 * `field`. A role's members are its `users` and `roles` relations (className `_Role`).
 */
export const objectRelations = pgTable(
  'object_relations',
  {
    className: text('class_name').notNull(),
    field: text('field').notNull(),
    owningId: text('owning_id').notNull(),
    relatedId: text('related_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.className, t.field, t.owningId, t.relatedId] }),
    // The relations an object is held in: a user's roles, a role's parent roles.
    index('object_relations_related_idx').on(t.className, t.field, t.relatedId),
  ],
)

/** The wallet addresses that sign in as a user: the first one, and each one linked since. */
export const userAddresses = pgTable(
  'user_addresses',
  {
    /** Checksummed address; an address belongs to one user only. */
    address: text('address').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_addresses_user_idx').on(t.userId)],
)

/**
 * The document-field indexes built so far (objects/field-indexes.ts): one per class and field
 * that queries ask for, recorded once built so every process knows them.
 */
export const objectFieldIndexes = pgTable(
  'object_field_indexes',
  {
    className: text('class_name').notNull(),
    field: text('field').notNull(),
    indexName: text('index_name').notNull(),
    createdAt: createdAt(),
    /** Removed in the console: not built again however often it is asked for. */
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.className, t.field] })],
)

/**
 * Uploaded files. The bytes live in this table (`storage` 'database', the default) or in an
 * S3-compatible store under the file's name ('s3'); the check keeps a row from claiming both or
 * neither.
 */
export const files = pgTable(
  'files',
  {
    name: text('name').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    storage: text('storage', { enum: ['database', 's3'] })
      .notNull()
      .default('database'),
    bytes: bytea('bytes'),
    createdAt: createdAt(),
  },
  (t) => [
    check('files_bytes_where_stored', sql`(${t.storage} = 'database') = (${t.bytes} is not null)`),
  ],
)

/** First answer of every write that carried an Idempotency-Key, replayed on retries (24 h). */
export const idempotency = pgTable(
  'idempotency',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    body: jsonb('body'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.key] }),
    index('idempotency_created_idx').on(t.createdAt),
  ],
)

/** Rate-limit counters shared by every server process on the same database. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: bigint('window_start', { mode: 'number' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [uniqueIndex('rate_limits_key_window').on(t.key, t.windowStart)],
)

/**
 * Values every server process on one database must agree on, made once by whichever process
 * needs one first (e.g. the secret behind visitor ids).
 */
export const sharedValues = pgTable('shared_values', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
})

/**
 * The server processes on this database, each with a digest per setting that must match
 * between them. A row counts while its process holds its registration lock (db/cluster/peers.ts);
 * a process removes its row on exit, and rows of processes that died go when the next one
 * joins. `lastSeen` is the time it joined.
 */
export const serverProcesses = pgTable('server_processes', {
  id: text('id').primaryKey(),
  settings: jsonb('settings').notNull(),
  startedAt: createdAt(),
  lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * Live-query sockets open per process and client address, so that the per-address limit holds
 * across processes; rows of a process that is gone (see `serverProcesses`) do not count.
 */
export const liveSockets = pgTable(
  'live_sockets',
  {
    processId: text('process_id').notNull(),
    address: text('address').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.processId, t.address] }),
    index('live_sockets_address_idx').on(t.address),
  ],
)

/** Where each contract-event sync stands: the next block to read (committed with its rows). */
export const eventSyncs = pgTable('event_syncs', {
  name: text('name').primaryKey(),
  chainId: integer('chain_id').notNull(),
  className: text('class_name').notNull(),
  nextBlock: bigint('next_block', { mode: 'bigint' }).notNull(),
  /** The chain's head when the sync last looked. */
  head: bigint('head', { mode: 'bigint' }),
  /** Rows written so far. */
  rows: bigint('rows', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Hashes of the recent blocks a sync read: a block whose hash changed was dropped by a reorg. */
export const syncBlocks = pgTable(
  'sync_blocks',
  {
    name: text('name').notNull(),
    number: bigint('number', { mode: 'bigint' }).notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.number] })],
)

/** The rows each sync wrote, by block: which to confirm, and which a reorg drops. */
export const syncedEvents = pgTable(
  'synced_events',
  {
    name: text('name').notNull(),
    objectId: text('object_id').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    confirmed: boolean('confirmed').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.name, t.objectId] }),
    index('synced_events_block_idx').on(t.name, t.blockNumber),
  ],
)

/**
 * Contract-event syncs made at run time (Moralis v1's `watchContractEvent`), one per class they
 * fill: every process starts them from here, and they outlive restarts.
 */
export const contractWatches = pgTable('contract_watches', {
  tableName: text('table_name').primaryKey(),
  /** The sync's name (its progress is kept under it). */
  syncName: text('sync_name').notNull(),
  chainId: integer('chain_id').notNull(),
  address: text('address').notNull(),
  /** The one event's ABI. */
  event: jsonb('event').notNull(),
  startBlock: bigint('start_block', { mode: 'bigint' }).notNull(),
  /** v1's filter on the event's fields, as given. */
  filter: jsonb('filter'),
  /** v1's `limit`, as given (kept for the console). */
  eventLimit: integer('event_limit'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * When it was unwatched: its sync no longer runs, and its class keeps its rows and their v1
   * shape (a new watch of the table replaces the row).
   */
  stoppedAt: timestamp('stopped_at', { withTimezone: true }),
})

// The address index's tables.
export * from './address-schema.ts'
