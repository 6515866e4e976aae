import type { SiteFunction } from '../functions.ts'
import { HttpError } from '../errors.ts'
import type { CompatAnswer, CompatCall, CompatCloud } from './call.ts'
import { ParseCode, ParseError } from './parse-error.ts'
import { requestMessage, serverTime } from './users.ts'
import { watchFunctions } from './watch-functions.ts'
import { isInstance, readThrown } from '../cloud/thrown.ts'
import { isWeb3ApiName } from '../web3api/service.ts'

// `functions/:name`: the built-ins the v1 clients call on their own (`getPluginSpecs` at start,
// `getServerTime` before every sign-in), `requestMessage` (a Sign-In with Ethereum message, as
// the self-hosted Moralis server offered), `trackEvent` (Portico's events, through `POST /api/events`), and the site's own
// functions: cloud code's (`Parse.Cloud.define`) and FUNCTIONS_MODULE's, run as the caller. The
// names of Moralis v1's Web3 API that the site does not define itself are answered from the
// chains' nodes (web3api/).

type Builtin = (call: CompatCall) => Promise<unknown>

/** What a site function may be called. */
export const FUNCTION_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/

const builtins: Record<string, Builtin> = {
  ...watchFunctions,
  getPluginSpecs: async () => [],
  getServerTime: serverTime,
  requestMessage,
  // Through `POST /api/events` itself: the same validation, rate limit and visitor hashing.
  trackEvent: async (call) => {
    const { event, subdomain = 'www', options } = call.params
    await call.session()
    const answer = await call.inject({
      method: 'POST',
      url: '/api/events',
      remoteAddress: call.request.ip,
      headers: {
        'content-type': 'application/json',
        ...(call.sessionToken ? { authorization: `Bearer ${call.sessionToken}` } : {}),
        ...(call.request.headers['user-agent']
          ? { 'user-agent': call.request.headers['user-agent'] }
          : {}),
      },
      payload: JSON.stringify({ subdomain, event, ...(options === undefined ? {} : { options }) }),
    })
    if (answer.statusCode === 202) return { ok: true }
    const refusal = answer.json<{ error?: { message?: string } }>()
    throw new ParseError(
      answer.statusCode === 429 ? ParseCode.CONNECTION_FAILED : ParseCode.SCRIPT_FAILED,
      `trackEvent: ${refusal.error?.message ?? 'the event was refused.'}`,
    )
  },
}

export type SiteFunctions = ReadonlyMap<string, SiteFunction>

/** Whether no built-in has this name. */
export function isFreeFunctionName(name: string): boolean {
  return !Object.hasOwn(builtins, name)
}

/**
 * Whether `POST functions/<name>` may come without an app id: v1 clients before 1.12 send none
 * on their Web3 API calls before sign-in. Only the Web3 API's own answers, which only read.
 */
export function answersWithoutAppId(
  name: string,
  site: SiteFunctions,
  cloud: CompatCloud | undefined,
): boolean {
  return (
    isWeb3ApiName(name) &&
    !Object.hasOwn(builtins, name) &&
    !cloud?.hasFunction(name) &&
    !site.has(name)
  )
}

export async function runFunction(
  call: CompatCall,
  name: string,
  site: SiteFunctions,
  cloud?: CompatCloud,
): Promise<unknown> {
  const builtin = Object.hasOwn(builtins, name) ? builtins[name] : undefined
  if (builtin) return builtin(call)
  if (cloud?.hasFunction(name)) return cloud.runFunction(call, name)
  const handler = site.get(name)
  if (!handler && isWeb3ApiName(name))
    return call.services.web3api.answer(name, call.params, call.request.ip)
  if (!handler)
    throw new ParseError(ParseCode.SCRIPT_FAILED, `Invalid function: "${name.slice(0, 64)}"`)
  const current = await call.session()
  try {
    const result = await handler({
      params: call.params,
      user: current ? { id: current.user.id, address: current.user.address } : null,
    })
    return result
  } catch (error) {
    if (isInstance(error, ParseError) || isInstance(error, HttpError)) throw error
    // The site's own failure: its message goes to the caller (as Parse Server does), with 141.
    // What it threw is read without trusting it (reading it may throw too).
    const { message } = readThrown(error)
    call.request.log.warn({ function: name, message }, 'site function failed')
    throw new ParseError(ParseCode.SCRIPT_FAILED, message)
  }
}

/** `POST jobs/<name>` with the master key: starts a run of cloud code's job, as Parse Server does. */
export async function startJob(
  call: CompatCall,
  name: string,
  cloud: CompatCloud | undefined,
): Promise<CompatAnswer> {
  if (!call.master)
    throw new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      'unauthorized: starting a job needs the master key.',
    )
  // Parse Server's words, which clients compare.
  if (!cloud?.registry.jobs.has(name)) throw new ParseError(ParseCode.SCRIPT_FAILED, 'Invalid job.')
  const jobId = await cloud.jobs.start(name, call.params, 'api')
  return { status: 200, body: {}, headers: { 'x-parse-job-status-id': jobId } }
}

/**
 * `GET cloud_code/jobs/data` with the master key (`Parse.Cloud.getJobsData()`): the names of
 * cloud code's jobs, and those in use by a schedule (none: the mount has no job schedules).
 */
export async function jobsData(
  call: CompatCall,
  cloud: CompatCloud | undefined,
): Promise<CompatAnswer> {
  if (!call.master)
    throw new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      'unauthorized: reading the jobs needs the master key.',
    )
  return { body: { jobs: cloud ? [...cloud.registry.jobs.keys()].sort() : [], in_use: [] } }
}
