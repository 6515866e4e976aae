import { useState } from 'react'
import type { SectionProps } from './console.tsx'

interface Report {
  className: string
  rows: number
  imported: number
  unchanged: number
  refused: { line: number; objectId?: string; reason: string }[]
  files: { line: number; objectId: string; field: string; url: string }[]
}
type Progress = { className: string; done: number; total: number }

/**
 * Imports the class files of a Parse or Moralis export (`_User.json` first, so that ACLs find
 * their users), showing the server's progress lines as they arrive.
 */
export function Import({ client, role }: SectionProps) {
  const [chosen, setChosen] = useState<File[]>([])
  const [progress, setProgress] = useState<Progress>()
  const [reports, setReports] = useState<Report[]>([])
  const [problem, setProblem] = useState<string>()
  const [busy, setBusy] = useState(false)

  const run = async () => {
    setBusy(true)
    setReports([])
    setProblem(undefined)
    const files = [...chosen].sort((a, b) =>
      a.name === '_User.json' ? -1 : b.name === '_User.json' ? 1 : a.name.localeCompare(b.name),
    )
    try {
      for (const file of files) {
        const className = file.name.replace(/\.json$/i, '')
        const answer = await fetch(
          client.url(`/api/admin/import/${encodeURIComponent(className)}`),
          {
            method: 'POST',
            credentials: 'include',
            headers: { 'content-type': 'application/json' },
            body: file,
          },
        )
        if (!answer.ok || !answer.body) {
          const refusal = (await answer.json().catch(() => null)) as {
            error?: { message?: string }
          } | null
          throw new Error(
            `${file.name}: ${refusal?.error?.message ?? `the server answered ${answer.status}`}`,
          )
        }
        const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader()
        let buffer = ''
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          buffer += value
          const lines = buffer.split('\n')
          buffer = lines.pop() ?? ''
          for (const line of lines.filter(Boolean)) {
            const message = JSON.parse(line) as {
              progress?: Progress
              report?: Report
              error?: string
            }
            if (message.progress) setProgress(message.progress)
            if (message.report) setReports((all) => [...all, message.report!])
            if (message.error) throw new Error(`${file.name}: ${message.error}`)
          }
        }
      }
    } catch (error) {
      setProblem((error as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="import-heading">
      <h2 id="import-heading">Import from Parse or Moralis</h2>
      <p>
        Choose the class files of an export (<code>CLASS.json</code>, each{' '}
        <code>{'{"results": [ … ]}'}</code> as Parse Dashboard and Moralis export them). Ids and
        dates are kept; running it again changes nothing. The command line does the same:{' '}
        <code>portico import parse FOLDER</code>.
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
      {problem ? <p role="alert">{problem}</p> : null}
      {reports.map((report) => (
        <section
          key={report.className}
          className="card"
          aria-label={`Import of ${report.className}`}
        >
          <h3>{report.className}</h3>
          <p role="status">
            {report.imported} imported, {report.unchanged} already there, {report.refused.length}{' '}
            refused, of {report.rows} rows.
          </p>
          {report.refused.length ? (
            <ul>
              {report.refused.map((row) => (
                <li key={`${row.line}`}>
                  Line {row.line}
                  {row.objectId ? ` (${row.objectId})` : ''}: {row.reason}
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
        </section>
      ))}
    </section>
  )
}
