import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '@portico/test-kit/http-server'
import { fetchUri, isPrivateAddress, type FetchLimits } from './fetch-uri.ts'

// Reading token URIs, which whoever deployed a contract writes: each kind of URI, and the
// limits that keep a hostile one (private addresses, redirects there, endless or huge answers)
// from reaching inside the network or holding the server.

describe('reading a token URI', () => {
  let site: TestServer
  let inside: TestServer
  const hanging = new Set<{ destroy(): void }>()
  let limits: FetchLimits

  beforeAll(async () => {
    // A service on this machine that a token URI must not reach.
    inside = await startTestServer(({ res }) => res.end('{"secret":true}'))
    site = await startTestServer(({ req, res }) => {
      if (req.url === '/ipfs/QmCat/1.json') return res.end('{"name":"from ipfs"}')
      if (req.url === '/plain.json') return res.end('{"name":"plain"}')
      if (req.url === '/inside') {
        res.writeHead(302, { location: `${inside.url}/admin` })
        return res.end()
      }
      if (req.url === '/hop') {
        res.writeHead(301, { location: '/plain.json' })
        return res.end()
      }
      if (req.url === '/hang') {
        hanging.add(res)
        return
      }
      if (req.url === '/huge') {
        // 50 MB, without a length, as fast as the reader takes it.
        res.writeHead(200, { 'content-type': 'application/json' })
        const chunk = Buffer.alloc(1024 * 1024, 0x20)
        let sent = 0
        const more = () => {
          while (sent < 50) {
            sent++
            if (!res.write(chunk)) return res.once('drain', more)
          }
          res.end()
        }
        res.on('error', () => {})
        return more()
      }
      res.writeHead(404).end()
    })
    limits = {
      ipfsGateway: `${site.url}/ipfs/`,
      privateHosts: [new URL(site.url).host],
      maxBytes: 64 * 1024,
      timeoutMs: 500,
    }
  })
  afterAll(async () => {
    for (const res of hanging) res.destroy()
    await site.close()
    await inside.close()
  })

  it('reads https/http, ipfs:// through the gateway, and data: URIs', async () => {
    expect(await fetchUri(`${site.url}/plain.json`, limits)).toBe('{"name":"plain"}')
    expect(await fetchUri(`${site.url}/hop`, limits)).toBe('{"name":"plain"}')
    expect(await fetchUri('ipfs://QmCat/1.json', limits)).toBe('{"name":"from ipfs"}')
    expect(await fetchUri('ipfs://ipfs/QmCat/1.json', limits)).toBe('{"name":"from ipfs"}')
    const json = '{"name":"inline","image":"x"}'
    expect(await fetchUri(`data:application/json;base64,${btoa(json)}`, limits)).toBe(json)
    expect(await fetchUri(`data:application/json,${encodeURIComponent(json)}`, limits)).toBe(json)
    await expect(
      fetchUri('ipfs://QmCat/1.json', { ...limits, ipfsGateway: undefined }),
    ).rejects.toThrow(/WEB3API_IPFS_GATEWAY/)
    await expect(fetchUri('file:///etc/passwd', limits)).rejects.toThrow(
      /file: token URIs are not read/,
    )
  })

  it('never reaches private addresses, directly, by name or through a redirect', async () => {
    await expect(fetchUri(`${inside.url}/admin`, limits)).rejects.toThrow(/private address/)
    const port = new URL(inside.url).port
    await expect(fetchUri(`http://localhost:${port}/admin`, limits)).rejects.toThrow(
      /private address/,
    )
    await expect(fetchUri(`${site.url}/inside`, limits)).rejects.toThrow(/private address/)
    await expect(fetchUri(`http://[::1]:${port}/`, limits)).rejects.toThrow(/private address/)
    await expect(fetchUri(`http://0x7f000001:${port}/`, limits)).rejects.toThrow(/private address/)
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ])
      expect(isPrivateAddress(address), address).toBe(true)
    for (const address of ['93.184.216.34', '2606:4700::1111', '8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false)
  })

  it('gives up on an answer that never ends or is too large', async () => {
    await expect(fetchUri(`${site.url}/hang`, limits)).rejects.toThrow(/no answer within 500 ms/)
    await expect(fetchUri(`${site.url}/huge`, limits)).rejects.toThrow(/larger than 65536 bytes/)
    const big = 'x'.repeat(70 * 1024)
    await expect(fetchUri(`data:application/json,${big}`, limits)).rejects.toThrow(/larger than/)
    // The reader is still fine afterwards.
    expect(await fetchUri(`${site.url}/plain.json`, limits)).toBe('{"name":"plain"}')
  })
})
