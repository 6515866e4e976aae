import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { freePort } from '@portico/test-kit/ports'
import { databaseKinds, testDatabase } from '../../test/helpers.ts'
import { startServer, type ServerProcess } from '../../test/server-process.ts'

// Two server processes on one PostgreSQL behind nginx (Debian's, our own instance in a temp
// folder) proxying with the shipped deploy/nginx/portico-proxy.conf: limits shared, each
// client's own address seen, live queries upgraded through the proxy, and a process killed with
// -9 under load losing no acknowledged write.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')
const shipped = path.join(repoRoot, 'deploy/nginx')
const nginxBin = '/usr/sbin/nginx'
const runs = databaseKinds().includes('postgres') && fs.existsSync(nginxBin)

/** One request from a given local address (127.0.0.x), as a client at that address would send it. */
function send(
  url: string,
  {
    method = 'GET',
    body,
    headers = {},
    from = '127.0.0.1',
  }: { method?: string; body?: string; headers?: Record<string, string>; from?: string },
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, headers, localAddress: from, agent: false },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () => {
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            json = text
          }
          resolve({ status: response.statusCode ?? 0, json })
        })
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

describe.runIf(runs)('two processes behind the shipped nginx configuration', () => {
  const servers: ServerProcess[] = []
  let nginx: ChildProcess
  let site: string
  let direct: string[]
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-nginx-'))

  beforeAll(async () => {
    const database = await testDatabase('postgres')
    const [port1, port2, proxyPort] = await Promise.all([freePort(), freePort(), freePort()])
    site = `http://127.0.0.1:${proxyPort}`
    const env = {
      DATABASE_URL: database.url!,
      PUBLIC_ORIGINS: site,
      TRUST_PROXY: '127.0.0.1',
      EVENTS_RATE_LIMIT: '10',
    }
    servers.push(
      startServer({ ...env, PORT: String(port1) }),
      startServer({ ...env, PORT: String(port2) }),
    )
    direct = await Promise.all(servers.map((server) => server.url))
    fs.writeFileSync(
      path.join(work, 'nginx.conf'),
      `daemon off;
worker_processes 1;
pid ${work}/nginx.pid;
error_log ${work}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  upstream portico {
    server 127.0.0.1:${port1} max_fails=2 fail_timeout=5s;
    server 127.0.0.1:${port2} max_fails=2 fail_timeout=5s;
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${proxyPort};
    include ${shipped}/portico-proxy.conf;
  }
}
`,
    )
    nginx = spawn(nginxBin, ['-p', work, '-c', path.join(work, 'nginx.conf')], { stdio: 'ignore' })
    // Until the proxy answers for the processes.
    for (let tries = 0; tries < 100; tries++) {
      const answer = await fetch(`${site}/api/ready`).catch(() => null)
      if (answer?.status === 200) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })
  afterAll(async () => {
    nginx?.kill('SIGQUIT')
    for (const server of servers) server.child.kill('SIGKILL')
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('the shipped nginx.conf passes nginx -t (its includes and TLS files in place)', () => {
    const conf = path.join(work, 'check')
    fs.mkdirSync(path.join(conf, 'tls'), { recursive: true })
    // The shipped files themselves, linked where the configuration expects them.
    fs.symlinkSync(path.join(shipped, 'nginx.conf'), path.join(conf, 'nginx.conf'))
    fs.symlinkSync(path.join(shipped, 'portico-proxy.conf'), path.join(conf, 'portico-proxy.conf'))
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=example.org',
        '-keyout',
        path.join(conf, 'tls/privkey.pem'),
        '-out',
        path.join(conf, 'tls/fullchain.pem'),
      ],
      { stdio: 'ignore' },
    )
    const output = execFileSync(
      nginxBin,
      [
        '-t',
        '-p',
        conf,
        '-c',
        path.join(conf, 'nginx.conf'),
        '-g',
        `pid ${conf}/nginx.pid; error_log ${conf}/error.log;`,
      ],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ).toString()
    expect(output).toBe('')
  })

  it('shares the events limit across processes, per client address, and ignores a forged X-Forwarded-For', async () => {
    const track = (from: string, headers: Record<string, string> = {}, base = site) =>
      send(`${base}/api/events`, {
        method: 'POST',
        from,
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ subdomain: 'www', event: 'page_view' }),
      })
    const statuses: number[] = []
    for (let i = 0; i < 15; i++) statuses.push((await track('127.0.0.2')).status)
    // Round robin over both processes, one shared count: 10 accepted, then refused.
    expect(statuses.filter((s) => s === 202)).toHaveLength(10)
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429, 429])
    // Another client behind the same proxy has its own limit.
    expect((await track('127.0.0.3')).status).toBe(202)
    // A peer that is not the proxy cannot claim to be the first client.
    expect((await track('127.0.0.4', { 'x-forwarded-for': '127.0.0.2' }, direct[0])).status).toBe(
      202,
    )
  })

  it('upgrades live queries through the proxy: a change made on either process reaches the subscriber', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const post = async (route: string, body: Record<string, unknown>) =>
      (
        await send(`${site}/server/${route}`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ _ApplicationId: 'portico', ...body }),
        })
      ).json as Record<string, unknown>
    const { result } = (await post('functions/getServerTime', {})) as {
      result: { dateTime: string }
    }
    const data = `Hello\n\nId: portico:${result.dateTime}`
    const user = await post('users', {
      authData: {
        moralisEth: {
          id: account.address,
          signature: await account.signMessage({ message: data }),
          data,
        },
      },
    })
    const socket = new WebSocket(`${site.replace('http', 'ws')}/api/live`)
    const notes: string[] = []
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { op: string; object?: { data: { note: string } } }
      if (message.op === 'create') notes.push(message.object!.data.note)
    })
    await new Promise((resolve) => socket.once('open', resolve))
    socket.send(JSON.stringify({ op: 'subscribe', requestId: 1, className: 'Wall' }))
    await new Promise((resolve) => setTimeout(resolve, 300))
    // Consecutive requests alternate between the processes.
    for (const note of ['one', 'two', 'three', 'four'])
      await post('classes/Wall', { note, _SessionToken: user.sessionToken })
    await expect.poll(() => [...notes].sort()).toEqual(['four', 'one', 'three', 'two'])
    socket.close()
  })

  it('loses no acknowledged write when a process is killed with -9 under load', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const post = async (route: string, body: Record<string, unknown>) =>
      send(`${site}/server/${route}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ _ApplicationId: 'portico', ...body }),
      })
    const { result } = (await post('functions/getServerTime', {})).json as {
      result: { dateTime: string }
    }
    const data = `Hello\n\nId: portico:${result.dateTime}`
    const user = (
      await post('users', {
        authData: {
          moralisEth: {
            id: account.address,
            signature: await account.signMessage({ message: data }),
            data,
          },
        },
      })
    ).json as { sessionToken: string }
    const acknowledged: string[] = []
    let next = 0
    const worker = async () => {
      while (next < 400) {
        const n = next++
        if (n === 150) servers[1]!.child.kill('SIGKILL')
        const answer = await post('classes/Load', { n, _SessionToken: user.sessionToken }).catch(
          () => null,
        )
        if (answer?.status === 201)
          acknowledged.push((answer.json as { objectId: string }).objectId)
      }
    }
    await Promise.all(Array.from({ length: 8 }, worker))
    expect(acknowledged.length).toBeGreaterThan(300)
    const stored = await send(`${site}/server/classes/Load`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({
        _ApplicationId: 'portico',
        _method: 'GET',
        _SessionToken: user.sessionToken,
        limit: 1000,
        keys: 'n',
      }),
    })
    const ids = (stored.json as { results: { objectId: string }[] }).results.map((r) => r.objectId)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of acknowledged) expect(ids).toContain(id)
  })
})
