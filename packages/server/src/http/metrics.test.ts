import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startMisbehavingNode, type MisbehavingNode } from '@portico/test-kit/misbehaving-node'
import { databaseKinds, testApp, testConfig } from '../../test/helpers.ts'
import { rpcTestConfig } from '../../test/rpc.ts'

let node: MisbehavingNode
beforeAll(async () => {
  node = await startMisbehavingNode('ok')
})
afterAll(async () => {
  await node?.close()
})

/** The value of one sample line of the Prometheus text, or undefined. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`))
  return line === undefined ? undefined : Number(line.split(' ').at(-1))
}

describe.each(databaseKinds())('metrics on %s', (kind) => {
  it('are off without METRICS_TOKEN', async () => {
    const { app } = await testApp(kind)
    expect((await app.inject('/api/metrics')).statusCode).toBe(404)
  })

  it('count requests, refusals, group commits and upstream attempts, for the token only', async () => {
    const base = testConfig()
    const { app } = await testApp(kind, {
      metricsToken: 'secret-token',
      app: { ...base.app, eventsRateLimit: 1 },
      rpc: rpcTestConfig({ 7: [node.url] }),
    })
    const { key } = await app.services.people.createApiKey('metrics')
    await app.inject('/api/health')
    const event = () =>
      app.inject({ method: 'POST', url: '/api/events', payload: { subdomain: 'a', event: 'e' } })
    expect((await event()).statusCode).toBe(202)
    expect((await event()).statusCode).toBe(429)
    const rpc = await app.inject({
      method: 'POST',
      url: '/api/rpc/7',
      headers: { 'x-api-key': key },
      payload: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' },
    })
    expect(rpc.statusCode).toBe(200)

    expect((await app.inject('/api/metrics')).statusCode).toBe(401)
    const answer = await app.inject({
      url: '/api/metrics',
      headers: { authorization: 'Bearer secret-token' },
    })
    expect(answer.statusCode).toBe(200)
    expect(answer.headers['content-type']).toMatch(/^text\/plain/)
    const text = answer.body
    const count = 'portico_http_request_duration_seconds_count'
    expect(sample(text, count, 'route="/api/health",method="GET",status="200"')).toBe(1)
    expect(sample(text, count, 'route="/api/events",method="POST",status="429"')).toBe(1)
    expect(sample(text, 'portico_rate_limit_refusals_total', 'route="/api/events"')).toBe(1)
    expect(
      sample(text, 'portico_rpc_upstream_attempt_seconds_count', 'chain="7",outcome="ok"'),
    ).toBe(1)
    expect(text).toMatch(/^portico_group_commit_batch_size_count [1-9]/m)
    if (kind === 'postgres') {
      expect(sample(text, 'portico_db_pool_connections', 'state="total"')).toBeGreaterThan(0)
    }
  })

  it('count the live-query sockets and subscriptions of the process', async () => {
    const { app } = await testApp(kind, { metricsToken: 'secret-token' })
    const origin = await app.listen({ host: '127.0.0.1', port: 0 })
    const socket = new WebSocket(`${origin.replace('http', 'ws')}/api/live`)
    await new Promise((resolve) => socket.once('open', resolve))
    socket.send(JSON.stringify({ op: 'subscribe', requestId: 1, className: 'Note' }))
    await new Promise((resolve) => socket.once('message', resolve))
    const read = async () =>
      (await app.inject({ url: '/api/metrics', headers: { authorization: 'Bearer secret-token' } }))
        .body
    expect(await read()).toMatch(/^portico_live_sockets 1$/m)
    expect(await read()).toMatch(/^portico_live_subscriptions 1$/m)
    socket.close()
    await expect.poll(read).toMatch(/^portico_live_subscriptions 0$/m)
    await expect.poll(read).toMatch(/^portico_live_sockets 0$/m)
  })
})
