import type { CloudLogs } from './logs.ts'
import type { ParseSdk } from './parse-sdk.ts'
import type { CloudRegistry, TriggerKind } from './registry.ts'

// What cloud code finds on `Parse.Cloud` besides the SDK's own (`run` is the SDK's, answered
// in-process): `define`, the triggers, `job`, `httpRequest` and `getLogger`, as Parse Server
// provides them. `Moralis` is the same SDK under v1's name, with v1's hosted-only settings
// accepted and ignored, and its Web3 API pointing at the RPC gateway instead.

const TRIGGERS: TriggerKind[] = [
  'beforeSave',
  'afterSave',
  'beforeDelete',
  'afterDelete',
  'beforeFind',
  'afterFind',
]

export function installCloudApi(Parse: ParseSdk, registry: CloudRegistry, logs: CloudLogs): void {
  const cloud = Parse.Cloud as Record<string, unknown>
  cloud.define = (name: unknown, handler: unknown, validator?: unknown) =>
    registry.define(name, handler, validator)
  cloud.job = (name: unknown, handler: unknown) => registry.job(name, handler)
  for (const kind of TRIGGERS)
    cloud[kind] = (target: unknown, handler: unknown, validator?: unknown) =>
      registry.defineTrigger(kind, target, handler, validator)
  cloud.beforeLogin = (handler: unknown, validator?: unknown) =>
    registry.defineTrigger('beforeLogin', '_User', handler, validator)
  cloud.afterLogout = (handler: unknown, validator?: unknown) =>
    registry.defineTrigger('afterLogout', '_User', handler, validator)
  cloud.httpRequest = httpRequest
  cloud.getLogger = () => logs.logger()
  for (const name of [
    'beforeSaveFile',
    'afterSaveFile',
    'beforeDeleteFile',
    'afterDeleteFile',
    'beforeConnect',
    'beforeSubscribe',
    'afterLiveQueryEvent',
    'beforePasswordResetRequest',
  ])
    cloud[name] = () => {
      throw new Error(`Parse.Cloud.${name} is not available on Portico (object triggers only).`)
    }
}

/** Answers a Web3 API function as `POST functions/<name>` does (web3api/service.ts). */
export type Web3ApiAnswer = (name: string, params: Record<string, unknown>) => Promise<unknown>

/** v1's `Moralis` global: the same SDK, with v1's extras. */
export function moralisOf(Parse: ParseSdk, logs: CloudLogs, web3api: Web3ApiAnswer): ParseSdk {
  const warn = (what: string) =>
    logs.logger().warn(`${what} is a setting of Moralis' hosted servers: ignored on Portico.`)
  const moralis = Object.create(Parse) as Record<string, unknown>
  moralis.settings = new Proxy(
    {},
    {
      get: (_target, name) =>
        typeof name === 'string'
          ? async () => {
              warn(`Moralis.settings.${name}`)
            }
          : undefined,
    },
  )
  const gateway = (area: string) =>
    new Proxy(
      {},
      {
        get: (_target, name) =>
          typeof name === 'string' && name !== 'then'
            ? new Proxy(() => {}, {
                get: (_t, method) =>
                  typeof method === 'string' && method !== 'then'
                    ? () => Promise.reject(new Error(web3ApiMessage(`${area}.${name}.${method}`)))
                    : undefined,
                apply: () => Promise.reject(new Error(web3ApiMessage(`${area}.${name}`))),
              })
            : undefined,
      },
    )
  moralis.Web3API = web3ApiGroups(web3api)
  moralis.EvmApi = gateway('Moralis.EvmApi')
  moralis.Web3 = gateway('Moralis.Web3')
  return moralis
}

/**
 * `Moralis.Web3API.<group>.<name>(params)` as the v1 SDK without an API key calls it: the
 * function name alone counts, `chain` is `eth` when absent, an error is a plain Error with the
 * server's text, and a page gets `next()`.
 */
function web3ApiGroups(answer: Web3ApiAnswer) {
  const call = async (name: string, params: unknown): Promise<unknown> => {
    const options = { ...(params as Record<string, unknown>) }
    if (!options.chain) options.chain = 'eth'
    let result: unknown
    try {
      result = await answer(name, options)
    } catch (error) {
      throw new Error(error instanceof Error ? error.message : String(error))
    }
    const page = result as { cursor?: unknown } | null
    if (page && typeof page === 'object' && typeof page.cursor === 'string' && page.cursor)
      Object.assign(page, { next: () => call(name, { ...options, cursor: page.cursor }) })
    return result
  }
  return new Proxy(
    {},
    {
      get: (_target, group) =>
        // The SDK's own start-up call: cloud code's Web3 API needs no key or server URL.
        group === 'initialize'
          ? () => {}
          : typeof group === 'string' && group !== 'then'
            ? new Proxy(
                {},
                {
                  get: (_t, name) =>
                    typeof name === 'string' && name !== 'then'
                      ? (params: unknown = {}) => call(name, params)
                      : undefined,
                },
              )
            : undefined,
    },
  )
}

const web3ApiMessage = (what: string) =>
  `${what} is Moralis' hosted Web3 API, which Portico does not have: read the chain through Portico's RPC gateway (POST /rpc/<chainId>) with viem or ethers instead.`

/** Parse's `Cloud.httpRequest`: fetch, answered as Parse's HTTPResponse. */
async function httpRequest(options: {
  url?: string
  method?: string
  headers?: Record<string, string>
  body?: unknown
  params?: Record<string, string> | string
  followRedirects?: boolean
  success?: (response: unknown) => void
  error?: (response: unknown) => void
}) {
  if (!options || typeof options.url !== 'string') throw new Error('httpRequest needs a url.')
  const url = new URL(options.url)
  if (options.params)
    for (const [key, value] of new URLSearchParams(
      typeof options.params === 'string' ? options.params : options.params,
    ))
      url.searchParams.append(key, value)
  const headers = { ...options.headers }
  let body: string | undefined
  if (options.body !== undefined) {
    const type = Object.entries(headers).find(([key]) => key.toLowerCase() === 'content-type')?.[1]
    if (typeof options.body === 'string') body = options.body
    else if (type?.includes('application/x-www-form-urlencoded'))
      body = new URLSearchParams(options.body as Record<string, string>).toString()
    else {
      body = JSON.stringify(options.body)
      if (!type) headers['Content-Type'] = 'application/json'
    }
  }
  const answer = await fetch(url, {
    method: (options.method ?? 'GET').toUpperCase(),
    headers,
    body,
    redirect: options.followRedirects ? 'follow' : 'manual',
  })
  const buffer = Buffer.from(await answer.arrayBuffer())
  const text = buffer.toString('utf8')
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    // Not JSON: Parse's response then has no `data`.
  }
  const response = {
    status: answer.status,
    headers: Object.fromEntries(answer.headers),
    buffer,
    text,
    data,
    cookies: answer.headers.getSetCookie?.() ?? [],
  }
  if (answer.status >= 400 || answer.status < 200) {
    options.error?.(response)
    throw response
  }
  options.success?.(response)
  return response
}
