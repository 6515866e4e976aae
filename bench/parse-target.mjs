// Parse Server 9 as bench/parse-side-by-side.mjs runs it: its own process, on the PostgreSQL
// database DATABASE_URL names, on 127.0.0.1. Prints one JSON line `{ url }` when listening.
//   DATABASE_URL=postgres://… node bench/parse-target.mjs <port> <appId> <masterKey>
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

// Its log files in a temporary directory, not the working one: its default logger opens them
// when the module loads, before any option is read.
const logsFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'parse-server-logs-'))
process.env.PARSE_SERVER_LOGS_FOLDER = logsFolder
const { ParseServer } = await import('parse-server')

const [port = '1337', appId = 'bench', masterKey = 'bench-master-key-0123456789'] =
  process.argv.slice(2)
const url = `http://127.0.0.1:${port}/parse`
await ParseServer.startApp({
  databaseURI: process.env.DATABASE_URL ?? '',
  appId,
  masterKey,
  maintenanceKey: `${masterKey}-maintenance`,
  masterKeyIps: ['127.0.0.1', '::1'],
  serverURL: url,
  mountPath: '/parse',
  port: Number(port),
  host: '127.0.0.1',
  logLevel: 'error',
  silent: true,
  logsFolder,
  // Its defaults as a new app gets them, with the two an open bench needs.
  allowClientClassCreation: true,
})
console.log(JSON.stringify({ url }))
