import { startAnvil } from '@portico/test-kit/anvil'
import { deployEmitter } from '../packages/server/test/sync.ts'
const anvil = await startAnvil()
const e = await deployEmitter(anvil.url)
await e.send('mint', ['0x00000000000000000000000000000000000000aa', 5n])
const r = await fetch(anvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest' }] }) })
console.log(await r.text())
await anvil.stop()
