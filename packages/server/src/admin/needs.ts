import type { ServerConfig } from '../config/server.ts'
import type { Database } from '../db/client.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { AuditLog } from '../audit/log.ts'

/**
 * What every console route plugin uses: the team's settings, the database, the objects and the
 * audit log their changes are written to.
 */
export interface ConsoleNeeds {
  config: ServerConfig
  db: Database
  objects: ObjectStore
  audit: AuditLog
}
