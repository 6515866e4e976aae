import type { BackendClient } from '@portico/sdk/backend'
import type {
  ConsoleAnswer,
  ConsoleBody,
  ConsoleImportLine,
  ConsoleParams,
  ConsoleQuery,
  ConsoleRoute,
} from '@portico/sdk/wire'
import { useServerData, type Loaded } from '../backend/use-server-data.ts'

// The console's one client of its API: a call names its route as the wire contract does
// (`'GET /api/admin/users/:userId/sessions'`), and what it sends and answers are that route's
// types, derived from the schemas the server validates with.

/** What a call of `R` sends: its path's parameters, query and body, as `R` takes them. */
export type ConsoleSent<R extends ConsoleRoute> = (ConsoleParams<R> extends undefined
  ? { params?: undefined }
  : { params: ConsoleParams<R> }) &
  (ConsoleQuery<R> extends undefined
    ? { query?: undefined }
    : { query?: ConsoleQuery<R> & Record<string, string | undefined> }) &
  (ConsoleBody<R> extends undefined ? { body?: undefined } : { body: ConsoleBody<R> }) & {
    signal?: AbortSignal
  }

type Args<R extends ConsoleRoute> =
  ConsoleParams<R> extends undefined
    ? ConsoleBody<R> extends undefined
      ? [sent?: ConsoleSent<R>]
      : [sent: ConsoleSent<R>]
    : [sent: ConsoleSent<R>]

/** The path of `route` with its parameters filled in (each encoded). */
export function consolePath(route: ConsoleRoute, params?: Record<string, string>): string {
  const path = route.slice(route.indexOf(' ') + 1)
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params?.[name]
    if (value === undefined) throw new Error(`${route} needs its ${name}`)
    return encodeURIComponent(value)
  })
}

/** Calls `route` and resolves to its answer (a refusal rejects with the SDK's BackendError). */
export function consoleCall<R extends ConsoleRoute>(
  client: BackendClient,
  route: R,
  ...[sent]: Args<R>
): Promise<ConsoleAnswer<R>> {
  const method = route.slice(0, route.indexOf(' ')) as 'GET' | 'POST' | 'PUT' | 'DELETE'
  const path = consolePath(route, sent?.params as Record<string, string> | undefined)
  return client.request<ConsoleAnswer<R>>(method, path, {
    query: sent?.query,
    body: sent?.body,
    signal: sent?.signal,
  })
}

/**
 * Loads a console `GET` route and loads it again when what it sends changes, or on `reload()`;
 * a newer load cancels the one before it, and the last answer stays shown until the next one
 * arrives. No route: nothing to load yet.
 */
export function useConsole<R extends ConsoleRoute & `GET ${string}`>(
  client: BackendClient,
  route: R | undefined,
  ...[sent]: Args<R>
): { state: Loaded<ConsoleAnswer<R>>; reload: () => void } {
  return useServerData<ConsoleAnswer<R>>({
    key: ['admin', route, sent?.params, sent?.query],
    read: (signal) => consoleCall(client, route!, ...([{ ...sent, signal }] as unknown as Args<R>)),
    enabled: route !== undefined,
  })
}

/**
 * Sends one export file to `POST /api/admin/import/:className` and yields the lines it answers
 * as they arrive: progress, then the report or an error. A refusal (an error answer instead of
 * lines) is yielded as the error line it amounts to.
 */
export async function* consoleImport(
  client: BackendClient,
  params: ConsoleParams<'POST /api/admin/import/:className'>,
  file: Blob,
): AsyncGenerator<ConsoleImportLine> {
  // Streamed: the client's request() reads a whole JSON answer, the progress lines would wait.
  const path = consolePath('POST /api/admin/import/:className', { className: params.className })
  const answer = await fetch(client.url(path), {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: file,
  })
  if (!answer.ok || !answer.body) {
    const refusal = (await answer.json().catch(() => null)) as ConsoleRefusal | null
    yield { error: refusal?.error?.message ?? `the server answered ${answer.status}` }
    return
  }
  const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += value
    const lines = buffer.split('\n')
    buffer = lines.pop() ?? ''
    for (const line of lines.filter(Boolean)) yield JSON.parse(line) as ConsoleImportLine
  }
}

/** An error answer, as far as the console reads it. */
type ConsoleRefusal = { error?: { message?: string } }
