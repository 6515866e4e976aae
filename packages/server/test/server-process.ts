import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

// The real CLI as a user starts it, from source through tsx (no build step needed in tests).
const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli.ts')

export interface ServerProcess {
  child: ChildProcess
  url: Promise<string>
  exited: Promise<number | null>
  output(): string
}

/** Starts `portico serve` on a free port of 127.0.0.1 with `env` added to the environment. */
export function startServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cli], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: '',
      LOG_LEVEL: 'silent',
      ...env,
    },
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const match = /running at (http:\/\/\S+)/.exec(output)
      if (match) resolve(match[1]!)
    })
    void exited.then(() => reject(new Error(`server exited early:\n${output}`)))
  })
  url.catch(() => {})
  return { child, url, exited, output: () => output }
}
