import type { FastifyInstance } from 'fastify'
import secureJson from 'secure-json-parse'
import { badRequest } from '../errors.ts'

// The JSON body parser of every route. Beyond JSON.parse it refuses, with 400 and before any
// work, what would otherwise fail later and worse:
// - nesting deeper than MAX_DEPTH (recursive code further on, validation or serialisation,
//   would overflow the stack and answer 500);
// - numbers JSON cannot carry (`1e400` parses to Infinity and would be stored as null);
// - strings or keys that PostgreSQL cannot store: NUL (`\u0000`) and lone UTF-16 surrogates.
//   Refused here, they never join a group commit, where they would fail everyone's writes.
// `__proto__` and `constructor.prototype` keys are refused as before (prototype poisoning).

export const MAX_DEPTH = 64

/** Depth of the deepest array/object nesting, counted on the text, strings skipped. */
export function nestingTooDeep(text: string): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_DEPTH) return true
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return false
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text)

/** The first value PostgreSQL or JSON cannot carry faithfully, described; undefined when none. */
export function unstorableValue(value: unknown): string | undefined {
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const current = stack.pop()
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return 'a number too large for JSON'
    } else if (typeof current === 'string') {
      if (unstorable(current)) return 'a text with a NUL character or a lone surrogate'
    } else if (Array.isArray(current)) {
      stack.push(...current)
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        if (unstorable(key)) return 'a key with a NUL character or a lone surrogate'
        stack.push(item)
      }
    }
  }
  return undefined
}

/** Parses a JSON body with every check above; throws the 400 a client gets. */
export function parseJsonText(text: string): unknown {
  if (text === '') throw badRequest('The JSON body is empty. Send a JSON object.', 'invalid_json')
  if (nestingTooDeep(text))
    throw badRequest(`The JSON body is nested deeper than ${MAX_DEPTH} levels.`, 'json_too_deep')
  let parsed: unknown
  try {
    parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
  } catch {
    throw badRequest('The body is not valid JSON.', 'invalid_json')
  }
  const problem = unstorableValue(parsed)
  if (problem) {
    throw badRequest(
      `The JSON body contains ${problem}, which cannot be stored. Remove or replace it.`,
      'invalid_value',
    )
  }
  return parsed
}

export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonText(body as string))
    } catch (error) {
      done(error as Error)
    }
  })
}
