// First-load JavaScript budget of `/`: starts the built server on a free
// port, loads `/` in Chromium with no interaction until the network is idle, and prints the gzip
// size of every script the page fetched plus its inline scripts, the total, and the ratio to the
// 80 KB budget. Exits 1 when over budget or when the page contacted any host but the server.
// Then loads `/admin` and prints the admin console's own chunks (what it loads beyond `/`).
//
//   npm run bench:web        (builds first)
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { CHROMIUM_ARGS, CHROMIUM_PATH, assertChromium } from '@portico/e2e/chromium'
import { chromium } from 'playwright-core'

const BUDGET_BYTES = 80 * 1024
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Starts `node packages/server/dist/cli.js` on port 0 and resolves with its URL.
 * @param {string} dataDir
 */
function startServer(dataDir) {
  const child = spawn(process.execPath, ['packages/server/dist/cli.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      WEB_DIR: path.join(repoRoot, 'apps/web/dist'),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  /** @type {Promise<string>} */
  const url = new Promise((resolve, reject) => {
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
      const match = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match?.[1]) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`server exited early (code ${code})`)))
    setTimeout(() => reject(new Error('server did not start within 60 s')), 60_000).unref()
  })
  return { child, url }
}

/**
 * Stops the server with SIGTERM (it shuts down cleanly) and waits for it to exit.
 * @param {import('node:child_process').ChildProcess} child
 */
async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
  await exited
  clearTimeout(timer)
}

/**
 * Loads `pathname` (`/` by default) and returns every script (fetched or inline) and every host
 * contacted.
 * @param {string} baseUrl
 * @param {string} [pathname]
 */
async function measure(baseUrl, pathname = '/') {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  try {
    const page = await browser.newPage()
    /** @type {Promise<{ name: string, body: Buffer }>[]} */
    const fetched = []
    const hosts = new Set()
    page.on('request', (request) => hosts.add(new URL(request.url()).host))
    page.on('response', async (response) => {
      const request = response.request()
      const type = response.headers()['content-type'] ?? ''
      if (request.resourceType() === 'script' || /javascript/.test(type)) {
        fetched.push(
          response.body().then((body) => ({ name: new URL(response.url()).pathname, body })),
        )
      }
    })
    await page.goto(`${baseUrl}${pathname}`, { waitUntil: 'networkidle' })
    const inline = await page.evaluate(() =>
      [...document.scripts]
        .filter((script) => !script.src)
        .map((script) => script.textContent ?? ''),
    )
    const scripts = [
      ...(await Promise.all(fetched)),
      ...inline.map((text, i) => ({ name: `(inline script ${i + 1})`, body: Buffer.from(text) })),
    ]
    return { scripts, hosts: [...hosts] }
  } finally {
    await browser.close()
  }
}

/** @param {number} bytes */
function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`
}

async function main() {
  for (const built of ['packages/server/dist/cli.js', 'apps/web/dist/index.html']) {
    if (!fs.existsSync(path.join(repoRoot, built))) {
      throw new Error(`${built} is missing: run "npm run build" first (npm run bench:web does).`)
    }
  }
  assertChromium()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-web-'))
  const server = startServer(dataDir)
  try {
    const baseUrl = await server.url
    const { scripts, hosts } = await measure(baseUrl)
    const serverHost = new URL(baseUrl).host
    const rows = scripts.map(({ name, body }) => ({
      name,
      raw: body.length,
      gzip: gzipSync(body).length,
    }))
    const total = rows.reduce((sum, row) => sum + row.gzip, 0)
    const width = Math.max(...rows.map((row) => row.name.length), 10)

    console.log(`First-load JavaScript of / (gzip, zlib default level; 1 KB = 1024 bytes)`)
    for (const row of rows) {
      console.log(
        `  ${row.name.padEnd(width)}  ${kb(row.raw).padStart(9)} raw  ${kb(row.gzip).padStart(8)} gzip`,
      )
    }
    const ratio = total / BUDGET_BYTES
    console.log(
      `  ${'total'.padEnd(width)}  ${''.padStart(13)}  ${kb(total).padStart(8)} gzip (${total} bytes)`,
    )
    console.log(
      `budget ${kb(BUDGET_BYTES)}: ratio ${ratio.toFixed(3)} (${(ratio * 100).toFixed(1)} % of budget)`,
    )

    const foreign = hosts.filter((host) => host !== serverHost)
    if (foreign.length) console.log(`requests to other hosts: ${foreign.join(', ')}`)
    else console.log(`requests to other hosts: none`)

    // The console: its code is fetched by /admin only (a visitor sees its "not allowed" page,
    // which is part of the same chunk), never by /.
    const consoleLoad = await measure(baseUrl, '/admin')
    const seen = new Set(scripts.map((script) => script.name))
    const own = consoleLoad.scripts.filter(
      (script) => !seen.has(script.name) && !script.name.startsWith('(inline'),
    )
    const ownGzip = own.reduce((sum, script) => sum + gzipSync(script.body).length, 0)
    console.log(`\nThe admin console's own chunks (loaded by /admin beyond what / loads)`)
    for (const script of own)
      console.log(
        `  ${script.name.padEnd(width)}  ${kb(gzipSync(script.body).length).padStart(8)} gzip`,
      )
    const isConsole = (/** @type {{ name: string }} */ script) =>
      /\/admin-[^/]*\.js$/.test(script.name)
    const consoleChunk = consoleLoad.scripts.find(isConsole)
    // Looked for among what / fetched (the list above leaves those out by construction).
    const inFirstLoad = scripts.some(isConsole)
    console.log(
      `  total ${kb(ownGzip)} gzip (an admin also loads the events chart); / loads the console chunk: ${inFirstLoad ? 'yes' : 'no'}`,
    )
    if (!consoleChunk) {
      console.error('no admin chunk was loaded by /admin')
      process.exitCode = 1
    } else if (inFirstLoad) {
      console.error("/ loads the admin console's chunk: it belongs to /admin alone")
      process.exitCode = 1
    }

    if (ratio > 1) {
      console.error('OVER BUDGET')
      process.exitCode = 1
    }
    if (foreign.length) process.exitCode = 1
  } finally {
    await stopServer(server.child)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
