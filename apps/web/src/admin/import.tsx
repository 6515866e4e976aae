import { useState } from 'react'
import type { ConsoleImportProgress, ConsoleImportReport } from '@portico/sdk/wire'
import { consoleImport } from './console-api.ts'
import type { SectionProps } from './section.ts'

/** The command line's order: users, roles, the other classes, then the relation files. */
const rank = (name: string) =>
  name === '_User.json' ? 0 : name === '_Role.json' ? 1 : name.startsWith('_Join:') ? 3 : 2

/**
 * Imports the files of a Parse export in the command line's order (`_User.json` first, so that
 * ACLs find their users), showing the server's progress lines as they arrive. A file the server
 * refuses is reported and the next one is still imported.
 */
export function Import({ client, role }: SectionProps) {
  const [chosen, setChosen] = useState<File[]>([])
  const [progress, setProgress] = useState<ConsoleImportProgress>()
  const [reports, setReports] = useState<ConsoleImportReport[]>([])
  const [problems, setProblems] = useState<string[]>([])
  const [busy, setBusy] = useState(false)

  const run = async () => {
    setBusy(true)
    setReports([])
    setProblems([])
    const files = [...chosen].sort(
      (a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    )
    for (const file of files) {
      try {
        const className = file.name.replace(/\.json$/i, '')
        for await (const line of consoleImport(client, { className }, file)) {
          if ('progress' in line) setProgress(line.progress)
          else if ('report' in line) setReports((all) => [...all, line.report])
          else throw new Error(`${file.name}: ${line.error}`)
        }
      } catch (error) {
        setProblems((all) => [...all, (error as Error).message])
      }
    }
    setBusy(false)
  }

  return (
    <section aria-labelledby="import-heading">
      <h2 id="import-heading">Import from Parse or Moralis</h2>
      <p>
        Choose the files of an export: <code>CLASS.json</code> as Parse Dashboard exports a class (a
        JSON array) or the legacy <code>{'{"results": [ … ]}'}</code>, and{' '}
        <code>_Join:field:Class.json</code> relation files. Ids, dates and ACLs are kept; running it
        again changes nothing and writes rows fixed since. The command line does the same:{' '}
        <code>npx portico import parse FOLDER</code>.
      </p>
      {role !== 'admin' ? (
        <p>Viewers cannot import.</p>
      ) : (
        <form
          className="console-filters"
          onSubmit={(event) => {
            event.preventDefault()
            void run()
          }}
        >
          <label>
            Export files
            <input
              type="file"
              accept=".json,application/json"
              multiple
              onChange={(event) => setChosen([...(event.target.files ?? [])])}
            />
          </label>
          <button type="submit" disabled={busy || chosen.length === 0}>
            {busy ? 'Importing…' : 'Import'}
          </button>
        </form>
      )}
      {progress ? (
        <p>
          <label>
            {progress.className}: {progress.done} of {progress.total} rows{' '}
            <progress value={progress.done} max={progress.total} />
          </label>
        </p>
      ) : null}
      {problems.length ? (
        <ul role="alert">
          {problems.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
      {reports.map((report) => (
        <section key={report.file} className="card" aria-label={`Import of ${report.file}`}>
          <h3>{report.file}</h3>
          <p role="status">
            {report.imported} imported, {report.unchanged} already there, {report.refused.length}{' '}
            refused, of {report.rows} rows.
          </p>
          {report.refused.length ? (
            <ul>
              {report.refused.map((row) => (
                <li key={`${row.line}`}>
                  Line {row.line}
                  {row.objectId ? ` (${row.objectId})` : ''}
                  {row.field ? `, field "${row.field}"` : ''}: {row.reason}
                </li>
              ))}
            </ul>
          ) : null}
          {report.files.length ? (
            <p>
              {report.files.length} file reference{report.files.length === 1 ? '' : 's'} kept as
              links, not copied: {report.files.map((f) => f.url).join(', ')}
            </p>
          ) : null}
          {report.notes.map((note) => (
            <p key={note}>{note}</p>
          ))}
        </section>
      ))}
    </section>
  )
}
