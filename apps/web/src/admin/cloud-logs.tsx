import { useState } from 'react'
import type { SectionProps } from './section.ts'
import { NoCloudCode } from './cloud-jobs.tsx'
import { useConsole } from './console-api.ts'
import './cloud.css'
import type { ConsoleLogLine as LogLine } from '@portico/sdk/wire'

const levels = [
  ['info', 'Everything'],
  ['warn', 'Warnings and errors'],
  ['error', 'Errors only'],
] as const

/**
 * Recent log lines, newest first: cloud code's `getLogger()` lines and the server's own warnings
 * and errors (this server process's; the server log has every line).
 */
export function CloudLogs({ client }: SectionProps) {
  const [level, setLevel] = useState<LogLine['level']>('info')
  const [text, setText] = useState('')
  const [applied, setApplied] = useState('')
  const cloud = useConsole(client, 'GET /api/admin/cloud')
  const logs = useConsole(client, 'GET /api/admin/logs', {
    query: { level, text: applied || undefined, limit: '200' },
  })
  const lines = logs.state.status === 'ready' ? logs.state.data.results : undefined
  return (
    <section aria-labelledby="logs-heading" className="cloud">
      <h2 id="logs-heading">Logs</h2>
      <p>
        Cloud code&apos;s logger lines and the server&apos;s recent warnings and errors, newest
        first, as this server process kept them (its log has every line).
      </p>
      {cloud.state.status === 'ready' && !cloud.state.data.configured ? <NoCloudCode /> : null}
      <form
        className="console-filters"
        role="search"
        aria-label="Filter the log"
        onSubmit={(event) => {
          event.preventDefault()
          setApplied(text.trim())
        }}
      >
        <label>
          Level
          <select value={level} onChange={(e) => setLevel(e.target.value as LogLine['level'])}>
            {levels.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Containing
          <input
            type="search"
            value={text}
            maxLength={200}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <button type="submit">Filter</button>
        <button type="button" className="button-secondary" onClick={logs.reload}>
          Refresh
        </button>
      </form>
      {logs.state.status === 'error' ? <p role="alert">{logs.state.message}</p> : null}
      {lines && lines.length === 0 ? (
        <p>{applied || level !== 'info' ? 'No line matches.' : 'Nothing has been logged yet.'}</p>
      ) : null}
      {lines?.length ? (
        <ol className="cloud-log cloud-log-lines" aria-label="Log lines, newest first">
          {lines.map((line, i) => (
            <li key={`${line.time}-${i}`} className={`cloud-level-${line.level}`}>
              <p className="cloud-log-meta">
                <time dateTime={line.time}>{new Date(line.time).toLocaleString()}</time>
                <span className="cloud-level">{line.level}</span>
                <span className="badge">{line.source === 'cloud' ? 'cloud code' : 'server'}</span>
                {line.requestId ? <span className="mono">request {line.requestId}</span> : null}
                {line.jobId ? <span className="mono">job run {line.jobId}</span> : null}
              </p>
              <p className="mono cloud-log-message">{line.message}</p>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  )
}
