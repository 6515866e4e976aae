import fs from 'node:fs'
import path from 'node:path'
import { loadConfig } from '../config/server.ts'
import { HttpError } from '../errors.ts'
import { ImportFileError, exportRows } from '../import/export-file.ts'
import { importClass, type ImportReport } from '../import/parse-import.ts'
import { openMemoryCluster } from '../db/cluster/memory.ts'
import { FieldIndexes } from '../objects/field-indexes.ts'
import { ViewerRoles } from '../objects/viewer-roles.ts'
import { ObjectStore } from '../objects/store.ts'
import { openConfiguredDatabase, UsageError } from './database.ts'

const usage = `Usage:
  portico import parse FOLDER    imports every CLASS.json of a Parse or Moralis export

Each file is one class as Parse Dashboard or Moralis exported it ({"results": [ … ]}), named
after the class. _User goes first, so that the other classes' ACLs find their users. Running
it again changes nothing; a row that cannot be imported is reported with its line.`

/** `portico import parse FOLDER`: a Parse or Moralis export into Portico objects. */
export async function importCommand(
  argv: string[],
  {
    env = process.env,
    print = console.log,
  }: { env?: Record<string, string | undefined>; print?: (line: string) => void } = {},
): Promise<ImportReport[]> {
  const [kind, folder] = argv
  if (kind !== 'parse' || !folder) throw new UsageError(usage)
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory())
    throw new UsageError(`No folder at ${folder}.\n${usage}`)
  const names = fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort((a, b) => (a === '_User.json' ? -1 : b === '_User.json' ? 1 : a.localeCompare(b)))
  if (names.length === 0) throw new UsageError(`No CLASS.json files in ${folder}.\n${usage}`)

  const database = await openConfiguredDatabase(env)
  // No server runs here: an import tells no live listeners and runs no query (so no field index
  // is ever planned or built).
  // Nothing is led either: a cluster of this one process is enough.
  const cluster = openMemoryCluster({ shared: {}, liveMaxSocketsPerAddress: 1 })
  const objects = new ObjectStore({
    db: database.db,
    fieldIndexes: new FieldIndexes(database.db, cluster, () => {}),
    publish: async () => {},
    answerMaxBytes: loadConfig(env).answerMaxBytes,
    roles: new ViewerRoles(database.db, cluster),
  })
  const reports: ImportReport[] = []
  try {
    for (const name of names) {
      const className = name.slice(0, -'.json'.length)
      let rows
      try {
        rows = exportRows(fs.readFileSync(path.join(folder, name), 'utf8'))
      } catch (error) {
        if (!(error instanceof ImportFileError)) throw error
        print(`${name}: skipped, ${error.message}`)
        continue
      }
      let shown = 0
      const report = await importClass(database.db, objects, {
        className,
        rows,
        onProgress: ({ done, total }) => {
          if (done < total && Date.now() - shown < 1_000) return
          shown = Date.now()
          print(`${className}: ${done} of ${total} rows read`)
        },
      }).catch((error: unknown) => {
        // A file this import cannot take (a class name it refuses): said, and the others go on.
        if (!(error instanceof HttpError)) throw error
        print(`${name}: skipped, ${error.message}`)
        return undefined
      })
      if (!report) continue
      reports.push(report)
      print(
        `${className}: ${report.imported} imported, ${report.unchanged} already there, ${report.refused.length} refused`,
      )
      for (const refused of report.refused)
        print(
          `  line ${refused.line}${refused.objectId ? ` (${refused.objectId})` : ''}: ${refused.reason}`,
        )
      for (const file of report.files)
        print(
          `  line ${file.line} (${file.objectId}): file "${file.field}" is at ${file.url}, not fetched`,
        )
    }
  } finally {
    await database.close()
  }
  return reports
}
