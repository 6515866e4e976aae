import { pino } from 'pino'
import { openDatabase, type Database } from '../src/db/client.ts'
import { openCluster } from '../src/db/cluster/cluster.ts'
import { adminAudit } from '../src/db/schema.ts'
import { ANY_OWNER } from '../src/objects/access.ts'
import { FieldIndexes } from '../src/objects/field-indexes.ts'
import type { ObjectTarget } from '../src/objects/object-store.ts'
import { openObjectStore } from '../src/objects/store.ts'
import { ViewerRoles } from '../src/objects/viewer-roles.ts'

// A process that makes one audited write of an object through the store and kills itself
// (SIGKILL: nothing runs after it, as in a crash or an OOM kill) at one moment of it:
// `in-transaction` right after the object's row is written and before its audit entry is,
// `after-commit` as soon as the transaction committed, or `never`.
// Arguments: pglite|postgres, the data directory or URL, update|delete, the moment, the
// class and id of the object, the actor.

const [kind, where, operation, moment, className, objectId, actor] = process.argv.slice(2) as [
  'pglite' | 'postgres',
  string,
  'update' | 'delete',
  'in-transaction' | 'after-commit' | 'never',
  string,
  string,
  string,
]

const die = () => process.kill(process.pid, 'SIGKILL')

/** `tx` with its audit inserts preceded by the kill, when asked for. */
function killingAtAudit(tx: Database): Database {
  return new Proxy(tx, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown
      if (property === 'insert' && moment === 'in-transaction')
        return (table: unknown) => {
          if (table === adminAudit) die()
          return target.insert(table as typeof adminAudit)
        }
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value
    },
  })
}

const database = await openDatabase(
  kind === 'pglite' ? { kind, dir: where } : { kind, url: where, poolSize: 2 },
)
const db = new Proxy(database.db, {
  get(target, property) {
    if (property === 'transaction')
      return async (work: (tx: Database) => Promise<unknown>) => {
        const result = await target.transaction((tx) => work(killingAtAudit(tx)))
        if (moment === 'after-commit') die()
        return result
      }
    const value = Reflect.get(target, property, target) as unknown
    return typeof value === 'function'
      ? (value as (...args: unknown[]) => unknown).bind(target)
      : value
  },
})
const cluster = await openCluster(
  database,
  { shared: {}, liveMaxSocketsPerAddress: 20 },
  pino({ level: 'silent' }),
)
const objects = openObjectStore({
  db,
  fieldIndexes: new FieldIndexes(db, cluster, () => {}),
  publish: async () => {},
  answerMaxBytes: 1_000_000,
  roles: new ViewerRoles(db, cluster),
})
const target: ObjectTarget = { className, objectId, userId: ANY_OWNER, auditActor: actor }
if (operation === 'update') await objects.update({ ...target, data: { state: 'changed' } })
else await objects.delete(target)
await cluster.close()
await database.close()
