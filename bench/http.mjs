// Load-generator plumbing shared by the server benchmarks: one request over a keep-alive agent.
import { spawn } from 'node:child_process'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * One HTTP request on `agent`; resolves with the status code once the body is drained,
 * rejects on network errors.
 * @param {string} url
 * @param {{ agent: http.Agent, method?: string, headers?: Record<string, string>, body?: string }} options
 * @returns {Promise<number>}
 */
export function send(url, { agent, method = 'GET', headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        agent,
        headers: {
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          ...headers,
        },
      },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode ?? 0))
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Starts bench/server-target.mjs (the real app plus bare baseline routes) on `dataDir` with `env`
 * added; resolves with its URL and a signed-in token once it listens. The child is pushed onto
 * `children` so the caller stops it whatever happens.
 * @param {string} dataDir
 * @param {Record<string, string>} env
 * @param {import('node:child_process').ChildProcess[]} children
 * @returns {Promise<{ url: string, token: string, userId: string, child: import('node:child_process').ChildProcess }>}
 */
export function startTarget(dataDir, env, children) {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(root, 'bench/server-target.mjs'), dataDir],
    { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  children.push(child)
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
      const line = output.split('\n').find((l) => l.startsWith('{'))
      if (line) resolve({ ...JSON.parse(line), child })
    })
    child.once('exit', (code) => reject(new Error(`bench server exited early (code ${code})`)))
  })
}
