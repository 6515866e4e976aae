import path from 'node:path'
import { startAnvil } from '@portico/test-kit/anvil'
import { deployEmitter } from '../packages/server/test/sync.ts'
import { buildServer } from '../packages/server/src/app.ts'
import { loadConfig } from '../packages/server/src/config/server.ts'
import { loadRpcConfig } from '../packages/server/src/config/rpc.ts'
import { openDatabase } from '../packages/server/src/db/client.ts'
import { Session } from 'node:inspector/promises'
import fs from 'node:fs'

const N = Number(process.env.N ?? 20000)
const anvil = await startAnvil()
const e = await deployEmitter(anvil.url)
const start = await e.wallet.getBlockNumber()
for (let made = 0; made < N; made += 2500) {
  await e.send('mintMany', ['0x00000000000000000000000000000000000000aa', 2500n, BigInt(made)])
  await e.testClient.mine({ blocks: 50 })
}
process.env.SYNC_ADDRESS = e.address
process.env.SYNC_START_BLOCK = String(start)
const database = process.env.PG ? await openDatabase({ kind: 'postgres', url: process.env.PG, poolSize: 5 }) : await openDatabase({ kind: 'pglite', dir: fs.mkdtempSync('/tmp/prof-') })
const config = { ...loadConfig({}), logLevel: 'silent' as const, rpc: { ...loadRpcConfig({}, []), upstreams: new Map([[31337, [anvil.url]]]) }, functionsModule: path.resolve('packages/server/test/fixtures/sync-module.mjs') }
const session = new Session(); session.connect()
const app = await buildServer({ config, database, logger: false })
await app.ready()
await session.post('Profiler.enable'); await session.post('Profiler.start')
const t = performance.now()
while ((app.services.syncStatus()[0]?.rows ?? 0) < N) await new Promise((r) => setTimeout(r, 20))
const ms = performance.now() - t
const { profile } = await session.post('Profiler.stop')
fs.writeFileSync('.scratch/sync.cpuprofile', JSON.stringify(profile))
console.log({ N, ms: ms.toFixed(0), rate: (N / ms * 1000).toFixed(0) })
// self time by function
const self = new Map<string, number>()
const nodes = new Map(profile.nodes.map((n: any) => [n.id, n]))
const dt = profile.timeDeltas as number[]
profile.samples.forEach((id: number, i: number) => { const n: any = nodes.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0)) })
const total = [...self.values()].reduce((a, b) => a + b, 0)
const cat = new Map<string, number>()
for (const [k, v] of self) { const c = k.includes('wasm') ? 'wasm' : k.split(' ').slice(-1)[0]!.split(':')[0]!; cat.set(c, (cat.get(c) ?? 0) + v) }
for (const [k, v] of [...cat.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log('CAT', (v / 1000).toFixed(0).padStart(6), 'ms', k)
for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1000).toFixed(0).padStart(6), 'ms', (v / total * 100).toFixed(1).padStart(5), '%', k)
await app.close(); await database.close(); await anvil.stop()
