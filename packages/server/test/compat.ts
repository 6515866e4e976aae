import { createRequire } from 'node:module'
import WebSocket from 'ws'
import type { FastifyInstance } from 'fastify'
import { freePort } from '@portico/test-kit/ports'
import { afterAll, beforeAll } from 'vitest'
import { loadConfig, type ServerConfig } from '../src/config/server.ts'
import type { DatabaseKind } from '../src/db/client.ts'
import { testApp } from './helpers.ts'

export interface ListeningApp {
  app: FastifyInstance
  origin: string
  /** The compatibility mount's URL, as apps pass it to `Moralis.start` / `Parse.serverURL`. */
  serverUrl: string
  close(): Promise<void>
}

/** A server listening on 127.0.0.1 (the clients under test speak HTTP and WebSocket to it). */
export async function listeningApp(
  kind: DatabaseKind,
  overrides: Partial<ServerConfig> = {},
): Promise<ListeningApp> {
  const port = await freePort()
  const { app, close } = await testApp(kind, {
    app: loadConfig({ PORT: String(port) }).app,
    ...overrides,
  })
  await app.listen({ host: '127.0.0.1', port })
  const origin = `http://127.0.0.1:${port}`
  return { app, origin, serverUrl: `${origin}${app.services.config.compat.mount}`, close }
}

/**
 * A server with the mount at `/server` and a master key (accepted from this machine), and the
 * Parse SDK `Parse` pointed at it: initialized with that key, REST and LiveQuery URLs set.
 * `compat` sets more of the mount's settings (`strictDefaults`), `overrides` other settings.
 */
export async function parseTarget(
  kind: DatabaseKind,
  Parse: ParseSdk,
  masterKey: string,
  compat: Partial<ServerConfig['compat']> = {},
  overrides: Partial<ServerConfig> = {},
): Promise<ListeningApp> {
  const server = await listeningApp(kind, {
    ...overrides,
    compat: {
      mount: '/server',
      legacySignIn: true,
      masterKey,
      masterKeyIps: ['127.0.0.1/8', '::1/128'],
      ...compat,
    },
  })
  Parse.initialize('portico', undefined, masterKey)
  Parse.serverURL = server.serverUrl
  Parse.liveQueryServerURL = server.serverUrl.replace(/^http/, 'ws')
  return server
}

const require = createRequire(import.meta.url)

/**
 * Keeps a v1 / Parse client on this machine: `start` asks unpkg for the latest version and
 * reports to Moralis' telemetry. Those calls go through the client's own REST controller, so
 * they are refused there, at the client's network boundary, like an offline machine would.
 */
export function keepOnLoopback(controllerModule: string): void {
  type Controller = { ajax: (...args: unknown[]) => Promise<unknown> }
  const loaded = require(controllerModule) as Controller & { default?: Controller }
  const controller = loaded.default ?? loaded
  const ajax = controller.ajax.bind(controller)
  controller.ajax = (method: unknown, url: unknown, ...rest: unknown[]) => {
    if (typeof url === 'string' && !/^https?:\/\/127\.0\.0\.1[:/]/.test(url))
      return Promise.reject(new Error(`outside host refused in tests: ${url}`))
    return ajax(method, url, ...rest)
  }
}

/** The Parse JS SDK's `Parse` (Node build), loosely typed as its own types are. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose SDK types
export type ParseSdk = any

/** Signs `account` in through the Parse SDK as a Moralis v1 app does (the legacy signed server time). */
export async function parseLogIn(
  Parse: ParseSdk,
  account: { address: string; signMessage(input: { message: string }): Promise<string> },
): Promise<{ id: string; getSessionToken(): string; get(key: string): unknown }> {
  const { dateTime } = (await Parse.Cloud.run('getServerTime')) as { dateTime: string }
  const data = `Sign in to the shop\n\nId: portico:${dateTime}`
  const authData = {
    id: account.address.toLowerCase(),
    signature: await account.signMessage({ message: data }),
    data,
  }
  return Parse.User.logInWith('moralisEth', { authData })
}

/**
 * Leaves the SDK as a new client would find it: its LiveQuery socket closed and forgotten (the
 * SDK keeps one default client per process, with the first user's token) and no current user.
 */
export async function parseSignOff(Parse: ParseSdk): Promise<void> {
  await Parse.LiveQuery.close().catch(() => {})
  Parse.CoreManager.getLiveQueryController()._clearCachedDefaultClient?.()
  await Parse.User.logOut().catch(() => {})
}

/** A WebSocket to `url` (a live-query protocol's), once open, and every message it received. */
export async function liveSocket(url: string) {
  const socket = new WebSocket(url)
  const messages: Record<string, unknown>[] = []
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Record<string, unknown>))
  await new Promise((resolve) => socket.once('open', resolve))
  return {
    messages,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    close: () => socket.close(),
  }
}

/**
 * `parseTarget` for the tests of one `describe`: started before them (the SDK keeping its
 * current user in Node), stopped after them. Returns the server once started.
 */
export function parseTargetForSuite(
  kind: DatabaseKind,
  Parse: ParseSdk,
  masterKey: string,
  compat: Partial<ServerConfig['compat']> = {},
  overrides: Partial<ServerConfig> = {},
): () => ListeningApp {
  let server: ListeningApp | undefined
  beforeAll(async () => {
    server = await parseTarget(kind, Parse, masterKey, compat, overrides)
    Parse.User.enableUnsafeCurrentUser()
  })
  afterAll(async () => {
    await Parse.User.logOut().catch(() => {})
    await server?.close()
  })
  return () => server!
}
