import type { FastifyBaseLogger } from 'fastify'
import { format } from 'node:util'
import { currentScope } from '../http/request-scope.ts'

// Cloud code's logger (`Parse.Cloud.getLogger()`, `request.log`): each line goes to the server
// log, tagged `cloud`, and into a bounded list of recent lines the console shows (this
// process's; every line is in the server log).

export type LogLevel = 'info' | 'warn' | 'error'

export interface CloudLogLine {
  time: string
  level: LogLevel
  message: string
  /** The HTTP request the line was logged in, when there was one. */
  requestId?: string | undefined
  /** The job run it belongs to. */
  jobId?: string | undefined
}

/** Lines kept for the console. */
export const KEPT_LINES = 1_000

export interface CloudLogger {
  info(...args: unknown[]): void
  warn(...args: unknown[]): void
  error(...args: unknown[]): void
  debug(...args: unknown[]): void
  verbose(...args: unknown[]): void
  silly(...args: unknown[]): void
  log(...args: unknown[]): void
}

export class CloudLogs {
  readonly #lines: CloudLogLine[] = []
  readonly #log: FastifyBaseLogger

  constructor(log: FastifyBaseLogger) {
    this.#log = log.child({ cloud: true })
  }

  /** A logger whose lines carry `jobId` (a job's) or none. */
  logger(jobId?: string, onLine?: (line: CloudLogLine) => void): CloudLogger {
    const write = (level: LogLevel) => (...args: unknown[]) => {
      const line: CloudLogLine = {
        time: new Date().toISOString(),
        level,
        message: format(...args).slice(0, 10_000),
        requestId: currentScope()?.requestId || undefined,
        jobId,
      }
      this.#lines.push(line)
      if (this.#lines.length > KEPT_LINES) this.#lines.splice(0, this.#lines.length - KEPT_LINES)
      this.#log[level]({ requestId: line.requestId, jobId }, line.message)
      onLine?.(line)
    }
    return {
      info: write('info'),
      warn: write('warn'),
      error: write('error'),
      // Parse's logger (winston) has these levels too: they count as info here.
      debug: write('info'),
      verbose: write('info'),
      silly: write('info'),
      log: write('info'),
    }
  }

  /** Recent lines, newest first, at `level` or above, containing `text`. */
  recent(options: { level?: LogLevel; text?: string; limit?: number } = {}): CloudLogLine[] {
    const rank = { info: 0, warn: 1, error: 2 }
    const floor = rank[options.level ?? 'info']
    const text = options.text?.toLowerCase()
    const out: CloudLogLine[] = []
    for (let i = this.#lines.length - 1; i >= 0 && out.length < (options.limit ?? 200); i--) {
      const line = this.#lines[i]!
      if (rank[line.level] < floor) continue
      if (text && !line.message.toLowerCase().includes(text)) continue
      out.push(line)
    }
    return out
  }
}
