import { format } from 'node:util'

// The server's own recent warnings and errors, kept in memory for the console's Logs section
// (this process's; every line is in the server log too). Fed by a pino `logMethod` hook set
// where the logger is created, so every child logger (each request's) is covered.

export interface ServerLogLine {
  time: string
  level: 'warn' | 'error'
  message: string
  requestId?: string | undefined
}

/** Lines kept. */
export const KEPT_SERVER_LINES = 500

/** Pino's numbers for warn and error (fatal counts as error). */
const WARN = 40
const ERROR = 50

type LogMethod = (this: { bindings?: () => Record<string, unknown> }, ...args: unknown[]) => void

export class RecentServerLog {
  readonly #lines: ServerLogLine[] = []

  /** Pino's `hooks` option that records warn and error lines here, then logs them as usual. */
  readonly hooks = {
    logMethod: (() => {
      const record = this.#record.bind(this)
      return function logMethod(
        this: { bindings?: () => Record<string, unknown> },
        args: unknown[],
        method: LogMethod,
        level: number,
      ) {
        if (level >= WARN) record(args, level, this.bindings?.() ?? {})
        return method.apply(this, args)
      }
    })(),
  }

  /** Recent lines, newest first, at `level` or above, containing `text`. */
  recent(options: { level?: 'info' | 'warn' | 'error'; text?: string; limit?: number } = {}) {
    const text = options.text?.toLowerCase()
    const out: ServerLogLine[] = []
    for (let i = this.#lines.length - 1; i >= 0 && out.length < (options.limit ?? 200); i--) {
      const line = this.#lines[i]!
      if (options.level === 'error' && line.level !== 'error') continue
      if (text && !line.message.toLowerCase().includes(text)) continue
      out.push(line)
    }
    return out
  }

  #record(args: unknown[], level: number, bindings: Record<string, unknown>): void {
    // Cloud code's lines are kept with cloud code's log (cloud/logs.ts), not twice.
    if (bindings.cloud) return
    const [first, ...rest] = args
    const fields =
      typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : undefined
    const error =
      first instanceof Error ? first : fields?.err instanceof Error ? fields.err : undefined
    const text = fields ? format(...rest) : format(...args)
    const message = [text, error && !text.includes(error.message) ? error.message : '']
      .filter(Boolean)
      .join(': ')
    const requestId = bindings.reqId ?? fields?.reqId ?? fields?.requestId
    this.#lines.push({
      time: new Date().toISOString(),
      level: level >= ERROR ? 'error' : 'warn',
      message: (message || '(no message)').slice(0, 10_000),
      requestId: typeof requestId === 'string' ? requestId : undefined,
    })
    if (this.#lines.length > KEPT_SERVER_LINES)
      this.#lines.splice(0, this.#lines.length - KEPT_SERVER_LINES)
  }
}

/** Fastify's `logger` option with the hook added (nothing to add when logging is off). */
export function withRecentLog(
  logger: boolean | object | undefined,
  level: string,
  recent: RecentServerLog,
): boolean | object {
  if (logger === false) return false
  const options =
    logger === undefined || logger === true ? { level } : (logger as Record<string, unknown>)
  const hooks = (options.hooks ?? {}) as Record<string, unknown>
  return { ...options, hooks: { ...hooks, logMethod: recent.hooks.logMethod } }
}
