import { spawn, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import path from 'node:path'
import { freePort } from './ports.ts'

// A real local chain for tests: anvil from npm (starts in about 0.2 s), one per test file.

const anvilBin = path.resolve(import.meta.dirname, '../../node_modules/.bin/anvil')

/** Anvil's first default account (public test key, funded with 10000 ETH). */
export const anvilAccount = {
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const,
  privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const,
}
export const anvilChainId = 31337

export interface Anvil {
  url: string
  port: number
  stop(): Promise<void>
}

/** One JSON-RPC call over node:http (not `fetch`: a DOM test environment replaces it, and logs refusals). */
function call(url: string, method: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (response) => {
        response.resume()
        resolve(response.statusCode === 200)
      },
    )
    // Not listening yet.
    request.on('error', () => resolve(false))
    request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }))
  })
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode}`)
    if (await call(url, 'eth_chainId')) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('anvil did not start within 15 s')
}

/** Starts anvil on a free 127.0.0.1 port; `stop()` kills it. */
export async function startAnvil(extraArgs: string[] = []): Promise<Anvil> {
  const port = await freePort()
  const child = spawn(
    anvilBin,
    ['--host', '127.0.0.1', '--port', String(port), '--silent', ...extraArgs],
    {
      stdio: 'ignore',
    },
  )
  const url = `http://127.0.0.1:${port}`
  try {
    await waitUntilReady(url, child)
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return {
    url,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
