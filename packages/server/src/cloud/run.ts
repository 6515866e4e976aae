import { AsyncLocalStorage } from 'node:async_hooks'
import { cloudCodeError, HttpError } from '../errors.ts'
import { isInstance, readThrown } from './thrown.ts'

// Running one of the site's handlers: within its deadline, not nested without end, and with
// whatever it throws turned into the error a client gets (a `Parse.Error` keeps its code and
// message, anything else is 141 with its message). A handler never takes the server down.

/** Cloud code calls (triggers, functions) nested deeper than this are refused. */
export const MAX_CLOUD_DEPTH = 16

const SCRIPT_FAILED = 141

const depth = new AsyncLocalStorage<number>()

export interface RunOptions {
  /** What runs, for messages and logs: `beforeSave Item`, `function hello`. */
  label: string
  /** Most milliseconds it may take; undefined for none (jobs). */
  timeoutMs?: number | undefined
}

/** Runs `work` as one cloud code call. */
export async function runCloud<T>(options: RunOptions, work: () => T | Promise<T>): Promise<T> {
  const level = (depth.getStore() ?? 0) + 1
  if (level > MAX_CLOUD_DEPTH)
    throw cloudCodeError(
      SCRIPT_FAILED,
      `${options.label}: cloud code nested more than ${MAX_CLOUD_DEPTH} calls deep (a trigger that saves its own class runs itself again): stop the recursion, e.g. with the save's context or a field.`,
    )
  return depth.run(level, async () => {
    try {
      return await withDeadline(options, work)
    } catch (error) {
      throw cloudFailure(error)
    }
  })
}

function withDeadline<T>(options: RunOptions, work: () => T | Promise<T>): Promise<T> {
  const running = Promise.resolve().then(work)
  if (options.timeoutMs === undefined) return running
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          cloudCodeError(
            SCRIPT_FAILED,
            `${options.label} did not finish within ${options.timeoutMs} ms (CLOUD_TIMEOUT_MS).`,
          ),
        ),
      options.timeoutMs,
    )
  })
  // A handler that fails after its deadline has nobody left to tell.
  running.catch(() => {})
  return Promise.race([running, late]).finally(() => clearTimeout(timer))
}

/**
 * What a handler threw, as the error its caller answers: a `Parse.Error` (the SDK's, or any
 * error with a numeric code) keeps its code; Portico's own refusals pass as they are.
 */
export function cloudFailure(error: unknown): HttpError {
  if (isInstance(error, HttpError)) return error as HttpError
  const { code, message } = readThrown(error)
  return cloudCodeError(code ?? SCRIPT_FAILED, message)
}
