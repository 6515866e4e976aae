import type { Database } from '../db/client.ts'
import { users } from '../db/schema.ts'
import { HttpError } from '../errors.ts'
import { parseClassPermissions, SCHEMA_CLASS } from '../objects/class-permissions.ts'
import { isValidName, SYSTEM_CLASSES } from '../objects/names.ts'
import { PARSE_DEFAULT_FIELDS } from '../objects/parse-shape.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { Document } from '../objects/wire.ts'
import type { ExportFormat, ExportRow } from './export-file.ts'
import { emptyReport, refuse, type ImportReport } from './report.ts'
import { RowRefused } from './rows.ts'

// The classes' schemas of an export (`_SCHEMA.json`): their class-level permissions and declared
// fields, kept as the schema routes keep them (objects/class-permissions.ts). Two row shapes are
// read: the schema routes' and the Dashboard's schema export (`{className, fields,
// classLevelPermissions}`), and Parse's own `_SCHEMA` rows as a MongoDB dump has them (`{_id,
// <field>: "<type>", _metadata: {class_permissions}}`). A class whose schema is there already is
// left as it is.

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

const MONGO_TYPES: Record<string, string> = {
  string: 'String',
  number: 'Number',
  boolean: 'Boolean',
  date: 'Date',
  object: 'Object',
  array: 'Array',
  geopoint: 'GeoPoint',
  file: 'File',
  polygon: 'Polygon',
  bytes: 'Bytes',
}

/** A MongoDB `_SCHEMA` field type (`string`, `*_User`, `relation<_Role>`) as the routes write it. */
function mongoField(type: string): Document | undefined {
  if (type.startsWith('*')) return { type: 'Pointer', targetClass: type.slice(1) }
  const relation = /^relation<(.+)>$/.exec(type)
  if (relation) return { type: 'Relation', targetClass: relation[1]! }
  const plain = MONGO_TYPES[type]
  return plain ? { type: plain } : undefined
}

/** One row as the class it describes, its permissions and its declared fields. */
function readRow(value: unknown): { className: string; data: Document } {
  if (!isObject(value)) throw new RowRefused('A schema row is an object')
  const className = value.className ?? value._id
  if (typeof className !== 'string' || !(SYSTEM_CLASSES.has(className) || isValidName(className)))
    throw new RowRefused('The row names no class ("className", or "_id" in a database dump)')
  const metadata = isObject(value._metadata) ? value._metadata : {}
  const permissions = value.classLevelPermissions ?? metadata.class_permissions
  const fields: Record<string, Document> = {}
  if (isObject(value.fields)) {
    for (const [field, spec] of Object.entries(value.fields))
      if (isObject(spec) && typeof spec.type === 'string') fields[field] = spec as Document
  } else {
    for (const [field, type] of Object.entries(value))
      if (!field.startsWith('_') && typeof type === 'string') {
        const spec = mongoField(type)
        if (spec) fields[field] = spec
      }
  }
  for (const field of Object.keys(PARSE_DEFAULT_FIELDS)) delete fields[field]
  const data: Document = { fields }
  if (permissions !== undefined && permissions !== null) {
    try {
      parseClassPermissions(permissions)
    } catch (error) {
      if (error instanceof HttpError) throw new RowRefused(error.message, 'classLevelPermissions')
      throw error
    }
    data.classLevelPermissions = permissions as Document
  }
  return { className, data }
}

/** Imports the rows of `_SCHEMA.json`. */
export async function importSchemas(
  db: Database,
  objects: ObjectStore,
  input: {
    file: string
    format: ExportFormat
    rows: ExportRow[]
    owner: { id: string; address: string }
  },
): Promise<ImportReport> {
  const report = emptyReport({ ...input, className: SCHEMA_CLASS })
  await db.insert(users).values(input.owner).onConflictDoNothing()
  const now = new Date()
  for (const { line, value, error } of input.rows) {
    try {
      if (error) throw new RowRefused(error.message, error.field)
      const { className, data } = readRow(value)
      const made = await objects.insertAbsent([
        {
          className: SCHEMA_CLASS,
          id: className,
          ownerId: input.owner.id,
          acl: {},
          data,
          createdAt: now,
          updatedAt: now,
        },
      ])
      if (made.length) report.imported++
      else report.unchanged++
    } catch (refusal) {
      if (!(refusal instanceof RowRefused)) throw refusal
      refuse(report, line, value, refusal)
    }
  }
  return report
}
