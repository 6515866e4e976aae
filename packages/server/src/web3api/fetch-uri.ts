import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'

// Reads a token's metadata document from its token URI: `https:`/`http:`, `ipfs://` through the
// configured gateway, or `data:`. A token URI is written by whoever deployed the contract, so
// each read is bounded in size and time, follows at most a few redirects, and never reaches a
// loopback, private or link-local address (unless the server allows it, as tests do): the check
// is made on the address actually connected to, so a name that resolves elsewhere later cannot
// slip through.

export interface FetchLimits {
  ipfsGateway: string | undefined
  /** Whether private addresses may be reached: all, none, or only these `host:port` origins. */
  privateHosts: boolean | readonly string[]
  maxBytes: number
  timeoutMs: number
}

const MAX_REDIRECTS = 3

/** Addresses a token URI may not reach. */
const blocked = new net.BlockList()
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4')
for (const [prefix, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6')

/** Whether `address` (an IP) is loopback, private, link-local or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return blocked.check(mapped[1]!, 'ipv4')
  const family = net.isIP(address)
  if (family === 0) return true
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

export class UriError extends Error {
  override name = 'UriError'
}

/** The document at `uri` as text (at most `maxBytes`). */
export async function fetchUri(uri: string, limits: FetchLimits): Promise<string> {
  if (uri.startsWith('data:')) return dataUri(uri, limits.maxBytes)
  let url: URL
  try {
    url = new URL(ipfsUrl(uri, limits.ipfsGateway))
  } catch (error) {
    if (error instanceof UriError) throw error
    throw new UriError('the token URI is not a URL')
  }
  const deadline = Date.now() + limits.timeoutMs
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const answer = await get(url, limits, deadline)
    if (answer.redirect === undefined) return answer.text!
    url = new URL(answer.redirect, url)
  }
  throw new UriError(`more than ${MAX_REDIRECTS} redirects`)
}

function ipfsUrl(uri: string, gateway: string | undefined): string {
  if (!uri.startsWith('ipfs://')) return uri
  if (!gateway)
    throw new UriError('an ipfs:// token URI needs an IPFS gateway: set WEB3API_IPFS_GATEWAY')
  return gateway + uri.slice('ipfs://'.length).replace(/^ipfs\//, '')
}

function dataUri(uri: string, maxBytes: number): string {
  const comma = uri.indexOf(',')
  if (comma < 0) throw new UriError('a data: URI without a comma')
  const head = uri.slice(5, comma)
  const body = uri.slice(comma + 1)
  if (body.length > maxBytes * 2) throw new UriError(`larger than ${maxBytes} bytes`)
  const bytes = head.endsWith(';base64')
    ? Buffer.from(body, 'base64')
    : Buffer.from(decodeURIComponent(body), 'utf8')
  if (bytes.length > maxBytes) throw new UriError(`larger than ${maxBytes} bytes`)
  return bytes.toString('utf8')
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void

/** dns.lookup, refusing names that resolve to an address a token URI may not reach. */
function guardedLookup(privateHosts: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, '')
      const addresses = found as dns.LookupAddress[]
      if (!privateHosts && addresses.some((entry) => isPrivateAddress(entry.address)))
        return callback(new UriError(`${hostname} resolves to a private address`), '')
      if (options.all) return callback(null, addresses)
      const first = addresses[0]
      if (!first) return callback(new UriError(`${hostname} has no address`), '')
      callback(null, first.address, first.family)
    })
  }
}

function get(
  url: URL,
  limits: FetchLimits,
  deadline: number,
): Promise<{ text?: string; redirect?: string }> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UriError(`${url.protocol} token URIs are not read`)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  const privateOk =
    limits.privateHosts === true ||
    (Array.isArray(limits.privateHosts) &&
      limits.privateHosts.includes(`${url.hostname.toLowerCase()}:${port}`))
  if (net.isIP(host) && !privateOk && isPrivateAddress(host))
    throw new UriError('the token URI points at a private address')
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      {
        lookup: guardedLookup(privateOk) as never,
        headers: { accept: 'application/json, */*;q=0.5' },
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume()
          request.destroy()
          return resolve({ redirect: response.headers.location })
        }
        if (status !== 200) {
          response.resume()
          request.destroy()
          return reject(new UriError(`the token URI answered HTTP ${status}`))
        }
        const length = Number(response.headers['content-length'])
        if (Number.isFinite(length) && length > limits.maxBytes) {
          request.destroy()
          return reject(new UriError(`larger than ${limits.maxBytes} bytes`))
        }
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > limits.maxBytes) {
            request.destroy(new UriError(`larger than ${limits.maxBytes} bytes`))
            return
          }
          chunks.push(chunk)
        })
        response.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8') }))
        response.on('error', reject)
      },
    )
    const left = Math.max(1, deadline - Date.now())
    const timer = setTimeout(
      () => request.destroy(new UriError(`no answer within ${limits.timeoutMs} ms`)),
      left,
    )
    request.on('close', () => clearTimeout(timer))
    request.on('error', (error) =>
      reject(error instanceof UriError ? error : new UriError(error.message)),
    )
  })
}
