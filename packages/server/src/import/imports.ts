import type { Database } from '../db/client.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { importOpened, type OpenedFile } from './parse-import.ts'
import type { ImportProgress, ImportReport } from './report.ts'

/** Imports of Parse export files into one database's objects, for the console's import route. */
export class Imports {
  readonly #db: Database
  readonly #objects: ObjectStore

  constructor(db: Database, objects: ObjectStore) {
    this.#db = db
    this.#objects = objects
  }

  /** Imports a file `openFile` read (see parse-import.ts). */
  run(file: OpenedFile, onProgress?: (progress: ImportProgress) => void): Promise<ImportReport> {
    return importOpened(this.#db, this.#objects, file, onProgress)
  }
}
