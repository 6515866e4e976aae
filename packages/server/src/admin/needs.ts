import type { ServerConfig } from '../config/server.ts'
import type { Database } from '../db/client.ts'
import type { ObjectStore } from '../objects/object-store.ts'

/** What every console route plugin uses: the team's settings, the database and the objects. */
export interface ConsoleNeeds {
  config: ServerConfig
  db: Database
  objects: ObjectStore
}
