import { parseArgs } from 'node:util'
import { loadConfig } from '../config/server.ts'
import { UsageError } from './database.ts'

const usage = `Usage:
  portico sync status [--url http://127.0.0.1:3000]   progress of the contract-event syncs of a running server`

interface Reported {
  name: string
  chainId: number
  className: string
  mode: string
  writer: boolean
  nextBlock: string
  head: string | null
  blocksLeft: string | null
  eventsPerSecond: number
  lastError: string | null
}

/** `portico sync status`: asks the running server (its health answer) how each sync is doing. */
export async function syncCommand(
  argv: string[],
  {
    env = process.env,
    print = console.log,
  }: { env?: Record<string, string | undefined>; print?: (line: string) => void } = {},
): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { url: { type: 'string' } },
  })
  if (positionals[0] !== 'status') throw new UsageError(usage)
  const config = loadConfig(env)
  const url = values.url ?? `http://${config.host}:${config.port}`
  let answer: { syncs?: Reported[] }
  try {
    answer = (await (await fetch(`${url}/api/health`)).json()) as typeof answer
  } catch {
    throw new UsageError(`No Portico server answers at ${url}: start it, or pass --url.`)
  }
  const syncs = answer.syncs ?? []
  if (syncs.length === 0)
    return print('No contract syncs are declared (defineSync in FUNCTIONS_MODULE).')
  for (const s of syncs) {
    const where =
      s.mode === 'backfill'
        ? `backfilling: block ${s.nextBlock}, ${s.blocksLeft} blocks left, ${s.eventsPerSecond} events/s`
        : s.mode === 'following'
          ? `following the head (block ${s.head ?? '?'})`
          : 'starting'
    const runner = s.writer ? '' : ' (run by another process)'
    print(
      `${s.name} → ${s.className} on chain ${s.chainId}: ${where}${runner}${s.lastError ? `; last error: ${s.lastError}` : ''}`,
    )
  }
}
