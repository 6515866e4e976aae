import type { HookKind } from '../objects/hooks.ts'

// What the site's cloud code registered: functions, triggers per class, jobs, and the login
// triggers. Filled while the code loads (and by handlers that register more later, as Parse
// allows); read on every call.

// The site's handlers are its own JavaScript: their request and answer are typed loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler = (request: any) => unknown

/** Parse's validator: a function that throws to refuse, or these options. */
export type Validator = Handler | ValidatorOptions

export interface ValidatorOptions {
  requireUser?: boolean
  requireMaster?: boolean
  validateMasterKey?: boolean
  skipWithMasterKey?: boolean
  requireUserKeys?: string[] | Record<string, unknown>
  requireAnyUserRoles?: string[] | (() => string[] | Promise<string[]>)
  requireAllUserRoles?: string[] | (() => string[] | Promise<string[]>)
  fields?: string[] | Record<string, FieldRule | unknown>
  rateLimit?: { requestTimeWindow?: number; requestCount?: number; errorResponseMessage?: string }
}

export interface FieldRule {
  type?: unknown
  required?: boolean
  default?: unknown
  options?: unknown
  constant?: boolean
  error?: string
}

export interface Registered {
  name: string
  handler: Handler
  validator?: Validator | undefined
}

export type TriggerKind = HookKind | 'beforeLogin' | 'afterLogout'

const FILE_LIKE = new Set(['@File', '@Config', '@Connect'])

/** The class a trigger is registered for: a name, or a class of the SDK (`Parse.User`). */
export function classNameOf(target: unknown): string {
  const named = target as { className?: unknown; name?: unknown } | undefined
  const name =
    typeof target === 'string'
      ? target
      : typeof named?.className === 'string'
        ? named.className
        : typeof target === 'function' && typeof named?.name === 'string'
          ? named.name.replace(/^Parse/, '@')
          : undefined
  const known: Record<string, string> = {
    '@User': '_User',
    '@Role': '_Role',
    '@Session': '_Session',
    '@Installation': '_Installation',
  }
  const className = name === undefined ? undefined : (known[name] ?? name)
  if (!className) throw new Error('A trigger needs a class: its name or Parse.Object subclass.')
  if (FILE_LIKE.has(className))
    throw new Error(`Triggers on ${className} are not available on Portico (objects only).`)
  return className
}

export class CloudRegistry {
  readonly functions = new Map<string, Registered>()
  readonly jobs = new Map<string, Registered>()
  readonly #triggers = new Map<string, Registered>()

  define(name: unknown, handler: unknown, validator?: unknown): void {
    this.functions.set(checkName('function', name), checked('function', name, handler, validator))
  }

  job(name: unknown, handler: unknown): void {
    this.jobs.set(checkName('job', name), checked('job', name, handler, undefined))
  }

  /** A class's trigger of `kind` (one per class and kind: a later one replaces it, as in Parse). */
  trigger(kind: TriggerKind, className: string): Registered | undefined {
    return this.#triggers.get(`${kind}\n${className}`)
  }

  has(kind: TriggerKind, className: string): boolean {
    return this.#triggers.has(`${kind}\n${className}`)
  }

  defineTrigger(kind: TriggerKind, target: unknown, handler: unknown, validator?: unknown): void {
    const className = kind === 'beforeLogin' || kind === 'afterLogout' ? '_User' : classNameOf(target)
    this.#triggers.set(
      `${kind}\n${className}`,
      checked(`${kind} trigger`, `${kind} ${className}`, handler, validator),
    )
  }

  /** `kind className` of every trigger, for the console. */
  triggerNames(): string[] {
    return [...this.#triggers.values()].map((trigger) => trigger.name).sort()
  }
}

function checkName(what: string, name: unknown): string {
  if (typeof name !== 'string' || !/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name))
    throw new Error(
      `A ${what} name is letters, digits and _ (at most 64, starting with a letter): got ${JSON.stringify(name)}.`,
    )
  return name
}

function checked(what: string, name: unknown, handler: unknown, validator: unknown): Registered {
  if (typeof handler !== 'function')
    throw new Error(`The ${what} ${String(name)} needs a handler function.`)
  if (validator !== undefined && typeof validator !== 'function' && typeof validator !== 'object')
    throw new Error(`The validator of ${what} ${String(name)} must be a function or an object.`)
  return {
    name: String(name),
    handler: handler as Handler,
    validator: (validator ?? undefined) as Validator | undefined,
  }
}
