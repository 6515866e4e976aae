import fs from 'node:fs'
import path from 'node:path'
import { loadConfig } from '../config/server.ts'
import { HttpError } from '../errors.ts'
import { openMemoryCluster } from '../db/cluster/memory.ts'
import { ImportFileError } from '../import/export-file.ts'
import { importFile, importOrder, type ImportReport } from '../import/parse-import.ts'
import { OpenClassReads, openClasses, openClassesNote } from '../compat/open-classes.ts'
import { FieldIndexes } from '../objects/field-indexes.ts'
import { ViewerRoles } from '../objects/viewer-roles.ts'
import { openObjectStore } from '../objects/store.ts'
import { openConfiguredDatabase, UsageError } from './database.ts'
import { openServices } from '../services.ts'
import { syncedClassRulesNow } from '../known-syncs.ts'
import { pino } from 'pino'

const usage = `Usage:
  portico import parse FOLDER [--triggers]
      imports every file of a Parse export: CLASS.json as Parse Dashboard exports a class
      (a JSON array of rows) or as the legacy Parse.com export ({"results": [ … ]}), and the
      legacy _Join:<field>:<Class>.json relation files

_User goes first, then _Role, then the other classes, then the relations. Running it again
changes nothing that was imported; a row that could not be imported is reported with its file,
line and field, and is written when the import runs again after it was fixed. It writes to the
database \`npm start\` uses (DATABASE_URL, or the embedded one in DATA_DIR).
  --triggers   runs cloud code's save triggers (CLOUD_CODE) on each imported row, one at a
               time: a beforeSave may change or refuse a row, afterSave is told of each`

export interface FileOutcome {
  file: string
  report?: ImportReport
  /** Why the file could not be imported (not an export, cut short). */
  error?: { message: string; line?: number }
  /** Why the file was left out on purpose (`_Session`, push, jobs). */
  skipped?: string
}

/** `portico import parse FOLDER`: a Parse or Moralis export into Portico objects. */
export async function importCommand(
  argv: string[],
  {
    env = process.env,
    print = console.log,
  }: { env?: Record<string, string | undefined>; print?: (line: string) => void } = {},
): Promise<FileOutcome[]> {
  const options = argv.filter((arg) => arg.startsWith('-'))
  const [kind, folder, ...extra] = argv.filter((arg) => !arg.startsWith('-'))
  const triggers = options.includes('--triggers')
  for (const option of options)
    if (option !== '--triggers') throw new UsageError(`Unknown option ${option}.\n${usage}`)
  if (triggers && !env.CLOUD_CODE)
    throw new UsageError(
      '--triggers runs the triggers of CLOUD_CODE: set CLOUD_CODE to your cloud code.',
    )
  if (kind !== 'parse' || !folder || extra.length) throw new UsageError(usage)
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory())
    throw new UsageError(`No folder at ${path.resolve(folder)}.\n${usage}`)
  const names = importOrder(fs.readdirSync(folder).filter((name) => name.endsWith('.json')))
  if (names.length === 0) throw new UsageError(`No CLASS.json files in ${folder}.\n${usage}`)

  const database = await openConfiguredDatabase(env)
  print(
    `Importing ${names.length} file${names.length === 1 ? '' : 's'} into ${env.DATABASE_URL ? 'PostgreSQL' : `the embedded database in ${loadConfig(env).dataDir}`}`,
  )
  // No server runs here: an import tells no live listeners and runs no query (so no field index
  // is ever planned or built).
  // Nothing is led either: a cluster of this one process is enough.
  const cluster = openMemoryCluster({ shared: {}, liveMaxSocketsPerAddress: 1 })
  // With --triggers the server's services run here (cloud code and its SDK need them), without
  // listening; their triggers see the import as the master key.
  const config = loadConfig(env)
  const log = pino({ level: 'warn' })
  const services = triggers ? await openServices(config, database, log) : undefined
  const objects =
    services?.objects ??
    openObjectStore({
      db: database.db,
      fieldIndexes: new FieldIndexes(database.db, cluster, () => {}),
      publish: async () => {},
      answerMaxBytes: config.answerMaxBytes,
      roles: new ViewerRoles(database.db, cluster),
      // The synced classes the server with this configuration has: written by their syncs alone.
      classRules: await syncedClassRulesNow(config, database.db, cluster, log),
    })
  const outcomes: FileOutcome[] = []
  try {
    for (const name of names) {
      let shown = Date.now()
      try {
        const report = await importFile(database.db, objects, {
          name,
          text: fs.readFileSync(path.join(folder, name), 'utf8'),
          triggers,
          onProgress: ({ className, done, total }) => {
            if (done >= total || Date.now() - shown < 1_000) return
            shown = Date.now()
            print(`${className}: ${done} of ${total} rows…`)
          },
        })
        outcomes.push({ file: name, report })
        printReport(report, print)
      } catch (error) {
        // A file the server refuses (a synced class) is reported like one that is not an export.
        if (error instanceof HttpError && error.statusCode < 500) {
          outcomes.push({ file: name, error: { message: error.message } })
          print(`${name}: not imported. ${error.message}`)
          continue
        }
        if (!(error instanceof ImportFileError)) throw error
        if (error.skipped) {
          outcomes.push({ file: name, skipped: error.message })
          print(`${name}: skipped. ${error.message}`)
          continue
        }
        outcomes.push({
          file: name,
          error: { message: error.message, ...(error.line ? { line: error.line } : {}) },
        })
        print(`${name}${error.line ? ` line ${error.line}` : ''}: not imported. ${error.message}`)
      }
    }
    const imported = outcomes.flatMap((o) => (o.report ? [o.report.className] : []))
    const open = await openClasses(
      { openClassReads: new OpenClassReads(database.db), config: loadConfig(env), syncs: [] },
      [...new Set(imported.filter((name) => !name.startsWith('_')))],
    )
    const note = openClassesNote(open, imported)
    if (note) print(`note: ${note}`)
  } finally {
    await services?.close()
    await database.close()
  }
  const refused = outcomes.reduce((sum, o) => sum + (o.report?.refused.length ?? 0), 0)
  const broken = outcomes.filter((o) => o.error).length
  if (refused || broken)
    print(
      `${refused} row${refused === 1 ? '' : 's'} refused, ${broken} file${broken === 1 ? '' : 's'} not imported: fix them and run the same command again; what is imported already is left as it is.`,
    )
  return outcomes
}

function printReport(report: ImportReport, print: (line: string) => void) {
  const what = report.file.startsWith('_Join:') ? 'relation members' : 'rows'
  print(
    `${report.file}: ${report.imported} ${what} imported, ${report.unchanged} already there, ${report.refused.length} refused`,
  )
  for (const refused of report.refused)
    print(
      `  ${report.file} line ${refused.line}${refused.objectId ? ` (objectId ${refused.objectId})` : ''}${refused.field ? `, field "${refused.field}"` : ''}: ${refused.reason}`,
    )
  for (const note of report.notes) print(`  note: ${note}`)
  if (report.files.length)
    print(
      `  ${report.files.length} file reference${report.files.length === 1 ? '' : 's'} kept as links, not copied (first: ${report.files[0]!.url || report.files[0]!.name}): fetch and upload them again if their host goes away.`,
    )
}
