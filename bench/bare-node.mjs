// The floor of any gateway written for Node on this machine: a bare `node:http` server that reads
// a JSON-RPC body and answers it at once, with the same headers as the gateway's answers, and
// does nothing else (no node behind it, no limits, no checks). bench:rpc measures it in the same
// run as the gateway. Listens on 127.0.0.1 at the port given, prints `ready` once it does.
import http from 'node:http'

const port = Number(process.argv[2])
const headers = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-type': 'application/json; charset=utf-8',
}
http
  .createServer((request, response) => {
    const chunks = /** @type {Buffer[]} */ ([])
    request.on('data', (chunk) => chunks.push(chunk))
    request.on('end', () => {
      const call = JSON.parse(Buffer.concat(chunks).toString())
      const payload = JSON.stringify({ jsonrpc: '2.0', id: call.id, result: '0x1' })
      response.writeHead(200, {
        ...headers,
        'x-request-id': 'bare',
        'content-length': String(Buffer.byteLength(payload)),
      })
      response.end(payload)
    })
  })
  .listen(port, '127.0.0.1', () => console.log('ready'))
