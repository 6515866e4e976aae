import { useEffect, useState } from 'react'
import type { SectionProps } from './section.ts'
import { change, dateTime } from './use-admin.ts'
import { consoleCall, useConsole } from './console-api.ts'
import './cloud.css'
import type { Loaded } from '../backend/use-server-data.ts'
import type { ConsoleAnswer, ConsoleJobRun as Run } from '@portico/sdk/wire'

/** What `GET /api/admin/cloud` answers: what CLOUD_CODE defined. */
export type CloudCodeAnswer = ConsoleAnswer<'GET /api/admin/cloud'>

const PAGE = 20
/** How often the runs are read again while one is running. */
const POLL_MS = 1_500

/** What to say when the server runs no cloud code. */
export function NoCloudCode() {
  return (
    <div className="card cloud-empty">
      <p>
        This server runs no cloud code. Set <code>CLOUD_CODE</code> to your app&apos;s cloud folder
        or its <code>main.js</code> (as Parse Server and Moralis v1 ran it) and restart the server:
        its functions, triggers and jobs appear here, and its <code>getLogger()</code> lines in
        Logs.
      </p>
    </div>
  )
}

/** Cloud code: what it defines, its jobs started from here, and their runs with status and log. */
export function CloudJobs({ client, role }: SectionProps) {
  const cloud = useConsole(client, 'GET /api/admin/cloud')
  const [skip, setSkip] = useState(0)
  const runs = useConsole(client, 'GET /api/admin/cloud/runs', {
    query: { limit: String(PAGE), skip: String(skip) },
  })
  const [message, setMessage] = useState<string>()
  const running =
    runs.state.status === 'ready' && runs.state.data.results.some((r) => r.status === 'running')
  const { reload } = runs
  // A run goes on in the background: its row is read again until it has ended.
  useEffect(() => {
    if (!running) return
    const timer = setInterval(reload, POLL_MS)
    return () => clearInterval(timer)
  }, [running, reload])

  const defined = cloud.state.status === 'ready' ? cloud.state.data : undefined
  return (
    <section aria-labelledby="cloud-heading" className="cloud">
      <h2 id="cloud-heading">Cloud code and jobs</h2>
      {cloud.state.status === 'error' ? <p role="alert">{cloud.state.message}</p> : null}
      {defined && !defined.configured ? <NoCloudCode /> : null}
      {defined?.configured ? (
        <>
          <Defined cloud={defined} />
          <h3>Jobs</h3>
          {defined.jobs.length === 0 ? (
            <p>
              The cloud code defines no jobs (<code>Parse.Cloud.job(name, handler)</code>).
            </p>
          ) : (
            <ul className="cloud-jobs">
              {defined.jobs.map((name) => (
                <JobCard
                  key={name}
                  name={name}
                  canStart={role === 'admin'}
                  onStart={async (params) => {
                    const failed = await change(() =>
                      consoleCall(client, 'POST /api/admin/cloud/jobs/:name', {
                        params: { name },
                        body: { params },
                      }),
                    )
                    setMessage(failed ?? `Started ${name}: its run is listed below.`)
                    if (!failed) {
                      setSkip(0)
                      reload()
                    }
                    return failed
                  }}
                />
              ))}
            </ul>
          )}
          {message ? <p role="status">{message}</p> : null}
        </>
      ) : null}
      {defined?.configured || (runs.state.status === 'ready' && runs.state.data.results.length) ? (
        <Runs state={runs.state} skip={skip} onSkip={setSkip} />
      ) : null}
    </section>
  )
}

function Defined({ cloud }: { cloud: CloudCodeAnswer }) {
  const groups = [
    ['Functions', cloud.functions],
    ['Triggers', cloud.triggers],
  ] as const
  return (
    <dl className="cloud-defined">
      {groups.map(([label, names]) => (
        <div key={label}>
          <dt>
            {label} ({names.length})
          </dt>
          <dd>
            {names.length ? (
              <ul>
                {names.map((name) => (
                  <li key={name} className="mono">
                    {name}
                  </li>
                ))}
              </ul>
            ) : (
              'None'
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}

/** A job with its params editor and Start button (admins only). */
function JobCard({
  name,
  canStart,
  onStart,
}: {
  name: string
  canStart: boolean
  onStart: (params: Record<string, unknown>) => Promise<string | undefined>
}) {
  const [text, setText] = useState('{}')
  const [problem, setProblem] = useState<string>()
  const [busy, setBusy] = useState(false)
  const id = `job-${name}`
  const start = async () => {
    let params: unknown
    try {
      params = JSON.parse(text || '{}')
    } catch {
      return setProblem('The params are not valid JSON.')
    }
    if (typeof params !== 'object' || params === null || Array.isArray(params))
      return setProblem('The params are a JSON object, e.g. {"limit": 10}.')
    setProblem(undefined)
    setBusy(true)
    await onStart(params as Record<string, unknown>)
    setBusy(false)
  }
  return (
    <li className="card cloud-job">
      <h4 className="mono" id={`${id}-name`}>
        {name}
      </h4>
      {canStart ? (
        <form
          aria-labelledby={`${id}-name`}
          onSubmit={(event) => {
            event.preventDefault()
            void start()
          }}
        >
          <label className="stacked">
            Params (JSON object)
            <textarea
              className="mono"
              rows={2}
              spellCheck={false}
              value={text}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          {problem ? (
            <p className="console-problem" id={`${id}-problem`} role="alert">
              {problem}
            </p>
          ) : null}
          <button type="submit" disabled={busy} aria-label={`Start ${name}`}>
            Start
          </button>
        </form>
      ) : (
        <p className="muted">Viewers see the runs; an admin starts jobs.</p>
      )}
    </li>
  )
}

const seconds = (run: Run) => {
  if (!run.startedAt) return '—'
  const end = run.finishedAt ? Date.parse(run.finishedAt) : Date.now()
  const ms = Math.max(0, end - Date.parse(run.startedAt))
  const text =
    ms < 1_000
      ? `${ms} ms`
      : ms < 60_000
        ? `${(ms / 1_000).toFixed(1)} s`
        : `${Math.round(ms / 60_000)} min`
  return run.finishedAt ? text : `${text} so far`
}

function Runs({
  state,
  skip,
  onSkip,
}: {
  state: Loaded<ConsoleAnswer<'GET /api/admin/cloud/runs'>>
  skip: number
  onSkip: (skip: number) => void
}) {
  const data = state.status === 'ready' ? state.data : undefined
  return (
    <>
      <h3 id="runs-heading">Runs</h3>
      {state.status === 'error' ? <p role="alert">{state.message}</p> : null}
      {data && data.results.length === 0 ? <p>No job has run yet.</p> : null}
      {data && data.results.length ? (
        <table className="cloud-runs" aria-labelledby="runs-heading">
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col">Duration</th>
              <th scope="col">Message and log</th>
            </tr>
          </thead>
          <tbody>
            {data.results.map((run) => (
              <tr key={run.id} data-run-id={run.id}>
                <th scope="row" className="mono" data-label="Job">
                  {run.jobName}
                  {run.source === 'api' ? <span className="badge">API</span> : null}
                </th>
                <td data-label="Status">
                  <span className={`cloud-status cloud-status-${run.status}`}>{run.status}</span>
                </td>
                <td data-label="Started">{dateTime(run.startedAt)}</td>
                <td data-label="Duration">{seconds(run)}</td>
                <td data-label="Message and log" className="cloud-run-detail">
                  {run.message ? <p>{run.message}</p> : null}
                  <details>
                    <summary>
                      Log ({run.log.length} {run.log.length === 1 ? 'line' : 'lines'}
                      {Object.keys(run.params).length ? ', params' : ''})
                    </summary>
                    {Object.keys(run.params).length ? (
                      <pre className="mono">{JSON.stringify(run.params, null, 2)}</pre>
                    ) : null}
                    {run.log.length ? (
                      <ol className="cloud-log">
                        {run.log.map((line, i) => (
                          <li key={i} className={`cloud-level-${line.level}`}>
                            <span className="muted">
                              {new Date(line.time).toLocaleTimeString()}
                            </span>{' '}
                            <span className="cloud-level">{line.level}</span>{' '}
                            <span className="mono">{line.message}</span>
                          </li>
                        ))}
                      </ol>
                    ) : (
                      <p className="muted">
                        {run.status === 'running' ? 'Its lines appear when it ends.' : 'No lines.'}
                      </p>
                    )}
                  </details>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {data && (skip > 0 || data.hasMore) ? (
        <p className="console-toolbar">
          <button
            type="button"
            className="button-secondary"
            disabled={skip === 0}
            onClick={() => onSkip(Math.max(0, skip - PAGE))}
          >
            Newer runs
          </button>
          <button
            type="button"
            className="button-secondary"
            disabled={!data.hasMore}
            onClick={() => onSkip(skip + PAGE)}
          >
            Older runs
          </button>
        </p>
      ) : null}
    </>
  )
}
