import { and, eq, sql } from 'drizzle-orm'
import { queryRows, type Database } from '../db/client.ts'
import { objects } from '../db/schema.ts'
import type { ServerConfig } from '../config/server.ts'
import {
  OPERATIONS,
  SCHEMA_CLASS,
  storedPermissions,
  type ClassPermissions,
  type Operation,
} from '../objects/class-permissions.ts'
import type { Document } from '../objects/wire.ts'
import type { Sync } from '../sync/definition.ts'
import { hasParseDefaults } from './parse-defaults.ts'

// The classes anyone signed out may write, for the site team to see (a line in the log at
// start, badges in the console, the import's report) and close in one step: those that take
// signed-out creates (a class without permissions on Parse's defaults, or whose `create` names
// `*`) and those holding objects whose ACL lets everyone write, where the class's `update` or
// `delete` lets everyone through. Closing writes the class's permissions so that every write
// needs a sign-in; reads stay as they were.

export interface OpenClass {
  className: string
  /** Clients that are not signed in may create objects in it. */
  create: boolean
  /** It holds objects that clients that are not signed in may change or delete. */
  write: boolean
}

export interface OpenClassSources {
  openClassReads: OpenClassReads
  config: Pick<ServerConfig, 'compat'>
  /** The contract-event syncs: their classes are written by their sync alone. */
  syncs: readonly Sync[]
}

const WRITES = ['create', 'update', 'delete', 'addField'] as const satisfies readonly Operation[]

/** What the listing reads of the objects' table: classes, their permissions, their public writes. */
export class OpenClassReads {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  /** Every class that holds objects, read from the class index one name at a time. */
  async classNames(): Promise<string[]> {
    const rows = await queryRows<{ name: string | null }>(
      this.#db,
      sql`with recursive c(name) as (
        (select class_name from ${objects} order by class_name limit 1)
        union all
        select (select o.class_name from ${objects} o where o.class_name > c.name
          order by o.class_name limit 1) from c where c.name is not null)
      select name from c where name is not null`,
    )
    return rows.map((row) => row.name!)
  }

  /** The stored permissions of every class that has a schema object, raw and parsed. */
  async schemas(): Promise<Map<string, Document | undefined>> {
    const rows = await this.#db
      .select({ id: objects.id, data: objects.data })
      .from(objects)
      .where(eq(objects.className, SCHEMA_CLASS))
    return new Map(
      rows.map((row) => {
        const stored = (row.data as Document).classLevelPermissions
        return [row.id, stored && typeof stored === 'object' ? (stored as Document) : undefined]
      }),
    )
  }

  /** Whether `className` has an object whose ACL lets everyone write. */
  async hasPublicWrite(className: string): Promise<boolean> {
    const [row] = await this.#db
      .select({ id: objects.id })
      .from(objects)
      .where(and(eq(objects.className, className), sql`'*' = any(${objects.writePerm})`))
      .limit(1)
    return row !== undefined
  }
}

const lets = (permissions: ClassPermissions | undefined, operation: Operation) =>
  permissions === undefined || permissions.operations[operation]?.who.has('*') === true

/** The classes open to signed-out writes, by name; among `only` when given. */
export async function openClasses(
  sources: OpenClassSources,
  only?: readonly string[],
): Promise<OpenClass[]> {
  const [names, stored] = await Promise.all([
    only ? [...only] : sources.openClassReads.classNames(),
    sources.openClassReads.schemas(),
  ])
  const synced = new Set(sources.syncs.map((sync) => sync.className))
  const open: OpenClass[] = []
  for (const className of new Set([...names, ...(only ? [] : stored.keys())])) {
    if (className.startsWith('_') || synced.has(className)) continue
    const raw = stored.get(className)
    const permissions = raw === undefined ? undefined : storedPermissions(raw)
    const create = permissions
      ? lets(permissions, 'create')
      : sources.config.compat.mount !== undefined && hasParseDefaults(sources.config, className)
    const write =
      (lets(permissions, 'update') || lets(permissions, 'delete')) &&
      (await sources.openClassReads.hasPublicWrite(className))
    if (create || write) open.push({ className, create, write })
  }
  return open.sort((a, b) => (a.className < b.className ? -1 : 1))
}

/**
 * `stored` (a class's permissions as Parse writes them, or undefined for none) closed to
 * signed-in users: every write operation that lets everyone through, or that a class without
 * permissions left open, needs a sign-in instead; reads stay open to all where they were.
 */
export function closedPermissions(stored: Document | undefined): Document {
  if (stored === undefined) {
    const all: Document = {}
    for (const operation of OPERATIONS)
      all[operation] = (WRITES as readonly string[]).includes(operation)
        ? { requiresAuthentication: true }
        : { '*': true }
    return all
  }
  const closed: Document = { ...stored }
  for (const operation of WRITES) {
    const entry = stored[operation]
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) continue
    const rest = { ...(entry as Document) }
    if (rest['*'] !== true) continue
    delete rest['*']
    closed[operation] = { ...rest, requiresAuthentication: true }
  }
  return closed
}

/** A log line naming the open classes; undefined when there are none. */
export function openClassesLine(open: readonly OpenClass[]): string | undefined {
  if (open.length === 0) return undefined
  const named = open.map(
    (c) =>
      `${c.className} (${[c.create && 'create', c.write && 'write'].filter(Boolean).join(', ')})`,
  )
  return `Classes anyone signed out may write: ${named.join(', ')}. Close one to signed-in users in the console (Objects), or set its permissions.`
}

/** Logs the open classes once (a warning, so that it shows at the default level); never throws. */
export async function logOpenClasses(
  sources: OpenClassSources,
  log: { warn(message: string): void; error(details: object, message: string): void },
): Promise<void> {
  try {
    const line = openClassesLine(await openClasses(sources))
    if (line) log.warn(line)
  } catch (error) {
    log.error({ err: error }, 'listing the classes open to signed-out writes failed')
  }
}

/** The import report's note on the open classes among `classNames`; undefined when none is. */
export function openClassesNote(
  open: readonly OpenClass[],
  classNames: readonly string[],
): string | undefined {
  const named = open.filter((c) => classNames.includes(c.className))
  if (named.length === 0) return undefined
  return `${named.map((c) => c.className).join(', ')}: anyone signed out may ${named.some((c) => c.create) ? 'create in or ' : ''}write ${named.length === 1 ? 'this class' : 'these classes'} on the compatibility mount (Parse's defaults, as on Parse): close one to signed-in users in the console if the site did not mean it.`
}
