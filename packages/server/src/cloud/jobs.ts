import { randomBytes } from 'node:crypto'
import { cloudCodeError } from '../errors.ts'
import { currentScope } from '../http/request-scope.ts'
import { MASTER_OWNER } from '../compat/master-key.ts'
import { ANY_OWNER } from '../objects/access.ts'
import { JOB_STATUS } from '../objects/names.ts'
import type { WireObject } from '../objects/rows.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { CloudLogLine, CloudLogs } from './logs.ts'
import type { CloudRegistry } from './registry.ts'
import { runCloud } from './run.ts'

// Cloud code's jobs (`Parse.Cloud.job`): started from the console or with the master key on
// the mount (`POST jobs/<name>`), run in the background without a deadline, each run recorded
// as a `_JobStatus` object as Parse Server does (status, message, params, times) with its log
// lines. Only the master key reads them (their ACL is empty).

/** Log lines kept with a run. */
const KEPT_LINES = 200

export type JobSource = 'api' | 'console'

export class CloudJobs {
  readonly #running = new Set<Promise<void>>()

  constructor(
    private readonly registry: CloudRegistry,
    private readonly objects: () => ObjectStore,
    private readonly logs: CloudLogs,
  ) {}

  names(): string[] {
    return [...this.registry.jobs.keys()].sort()
  }

  /** Starts a run of `name`; answers its id at once (the run goes on in the background). */
  async start(name: string, params: Record<string, unknown>, source: JobSource): Promise<string> {
    const job = this.registry.jobs.get(name)
    if (!job) throw cloudCodeError(141, 'Invalid job.')
    const id = randomBytes(12).toString('base64url')
    const now = new Date()
    await this.objects().insertAbsent([
      {
        className: JOB_STATUS,
        id,
        ownerId: MASTER_OWNER.id,
        acl: {},
        data: {
          jobName: name,
          source,
          status: 'running',
          message: '',
          params,
          startedAt: { __type: 'Date', iso: now.toISOString() },
          log: [],
        },
        createdAt: now,
        updatedAt: now,
      },
    ])
    const lines: CloudLogLine[] = []
    const scope = currentScope()
    const request = {
      params,
      master: true,
      jobId: id,
      jobName: name,
      ip: scope?.ip ?? '127.0.0.1',
      headers: scope?.headers ?? {},
      log: this.logs.logger(id, (line) => {
        lines.push(line)
        if (lines.length > KEPT_LINES) lines.shift()
      }),
      message: (text: unknown) => inTurn({ message: String(text).slice(0, 2_000) }),
    }
    // A run's writes land in the order they were asked: a message the job did not wait for must
    // not land after, and overwrite, the run's last one.
    let written: Promise<unknown> = Promise.resolve()
    const inTurn = (fields: Record<string, unknown>) => {
      const write = written.then(() => this.#update(id, fields))
      written = write.catch(() => {})
      return write
    }
    const run = runCloud({ label: `job ${name}` }, () => job.handler(request)).then(
      (result) =>
        this.#finish(
          inTurn,
          id,
          'succeeded',
          typeof result === 'string' ? result : undefined,
          lines,
        ),
      // A job may throw anything; Parse keeps a thrown string as the run's message.
      (error: unknown) =>
        this.#finish(
          inTurn,
          id,
          'failed',
          error instanceof Error ? error.message : String(error),
          lines,
        ),
    )
    this.#running.add(run)
    void run.finally(() => this.#running.delete(run))
    return id
  }

  /** The latest runs, newest first. */
  async runs(limit = 50): Promise<WireObject[]> {
    const { results } = await this.objects().query(ANY_OWNER, JOB_STATUS, {
      order: '-createdAt',
      limit,
      skip: 0,
    })
    return results
  }

  /** Waits for the runs in progress (when the server stops). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.#running])
  }

  async #finish(
    write: (fields: Record<string, unknown>) => Promise<void>,
    id: string,
    status: 'succeeded' | 'failed',
    message: string | undefined,
    lines: CloudLogLine[],
  ) {
    await write({
      status,
      ...(message === undefined ? {} : { message: message.slice(0, 2_000) }),
      finishedAt: { __type: 'Date', iso: new Date().toISOString() },
      log: lines.map((line) => ({
        time: line.time,
        level: line.level,
        message: line.message.slice(0, 2_000),
      })),
    }).catch((error: unknown) =>
      this.logs.logger(id).error(`recording the end of job run ${id} failed: ${String(error)}`),
    )
  }

  async #update(id: string, fields: Record<string, unknown>): Promise<void> {
    await this.objects().update({
      className: JOB_STATUS,
      objectId: id,
      userId: ANY_OWNER,
      data: fields,
    })
  }
}
