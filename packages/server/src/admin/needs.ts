import type { ServerConfig } from '../config/server.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { AuditLog } from '../audit/log.ts'

/**
 * What every console route plugin uses: the team's settings, the objects and the audit log
 * their changes are written to.
 */
export interface ConsoleNeeds {
  config: ServerConfig
  objects: ObjectStore
  audit: AuditLog
}
