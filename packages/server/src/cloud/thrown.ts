import { types } from 'node:util'

// What a site's handler threw, read without trusting it: a thrown value may be anything, and
// reading it may itself throw (a `message` getter that throws, a Proxy whose every trap does,
// a `toString` that throws). Whatever it is, the caller gets an answer, never a server failure.

/** The code and message of a thrown value; `code` only when it is a whole number above 0. */
export interface Thrown {
  code: number | undefined
  message: string
}

const UNREADABLE = 'The cloud code threw a value that cannot be read.'

/** Reads `value`'s `code` and `message` (its text otherwise), each read allowed to fail. */
export function readThrown(value: unknown): Thrown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function'))
    return { code: undefined, message: textOf(value) }
  const code = attempt(() => (value as { code?: unknown }).code)
  const message = attempt(() => (value as { message?: unknown }).message)
  return {
    code: typeof code === 'number' && Number.isInteger(code) && code > 0 ? code : undefined,
    message: typeof message === 'string' && message ? message : textOf(value),
  }
}

/** Whether `value` is an instance of `type` itself: a Proxy never is (it could answer anything). */
export function isInstance<T>(value: unknown, type: abstract new (...args: never[]) => T) {
  return !types.isProxy(value) && attempt(() => value instanceof type) === true
}

function textOf(value: unknown): string {
  const text = attempt(() => String(value))
  return typeof text === 'string' ? text : UNREADABLE
}

function attempt(read: () => unknown): unknown {
  try {
    return read()
  } catch {
    return undefined
  }
}
