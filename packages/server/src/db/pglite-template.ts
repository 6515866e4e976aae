import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'

// A ready embedded database to start from. Creating one (initdb, then the migrations) takes
// seconds and most of a gigabyte of memory that the process keeps; opening one that exists takes
// a fraction of both. So a new data directory is unpacked from a template: an archive of a
// migrated database, made once per schema (at build time, `dist/`, or on the first start, in
// `node_modules/.cache/portico/`) and keyed by the migrations and the PGlite version, so that a
// template is only used for the schema it was made with.

const require = createRequire(import.meta.url)

/** What makes a template fit: the migrations it ran and the PGlite that made it. */
export function templateKey(migrationsFolder: string): string {
  const hash = createHash('sha256')
  hash.update(pgliteVersion())
  for (const file of fs.readdirSync(migrationsFolder).sort())
    if (file.endsWith('.sql'))
      hash.update(file).update(fs.readFileSync(path.join(migrationsFolder, file)))
  return hash.digest('hex').slice(0, 16)
}

/** The folder of the PGlite package in use. */
function pgliteFolder(): string {
  const entry = require.resolve('@electric-sql/pglite')
  const marker = `${path.sep}@electric-sql${path.sep}pglite${path.sep}`
  return entry.slice(0, entry.lastIndexOf(marker) + marker.length - 1)
}

function pgliteVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(pgliteFolder(), 'package.json'), 'utf8'))
  return String((manifest as { version?: unknown }).version)
}

/** Where templates are looked for, in order: beside the built server, then the cache. */
function templateDirs(): string[] {
  const here = path.dirname(fileURLToPath(import.meta.url))
  const modules = path.resolve(pgliteFolder(), '..', '..')
  return [here, path.join(modules, '.cache', 'portico')]
}

export const templateName = (key: string) => `pglite-template-${key}.tar.gz`

/**
 * Fills the empty data directory `dataDir` from a template made for `key`: true when one was
 * found, false when PGlite must create the database itself. An existing database is left alone.
 */
export async function unpackTemplate(
  dataDir: string,
  key: string,
  from = templateDirs(),
): Promise<boolean> {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return false
  const file = from
    .map((dir) => path.join(dir, templateName(key)))
    .find((candidate) => fs.existsSync(candidate))
  if (!file) return false
  // Unpacked beside it, then renamed: a start cut short never leaves half a database behind.
  const partial = `${dataDir}.unpacking-${process.pid}`
  fs.rmSync(partial, { recursive: true, force: true })
  await untar(fs.createReadStream(file).pipe(zlib.createGunzip()), partial)
  fs.rmSync(dataDir, { recursive: true, force: true })
  fs.renameSync(partial, dataDir)
  return true
}

/**
 * Keeps `dataDir` (a database just created and migrated, checkpointed, nothing writing to it)
 * as the template for `key` in the cache, for the next new data directory. Best effort: a
 * read-only installation simply has no cache.
 */
export function saveTemplate(dataDir: string, key: string, into = templateDirs()[1]!): string {
  fs.mkdirSync(into, { recursive: true })
  const file = path.join(into, templateName(key))
  const partial = `${file}.${process.pid}`
  fs.writeFileSync(partial, zlib.gzipSync(tar(dataDir), { level: 6 }))
  fs.renameSync(partial, file)
  return file
}

// A minimal ustar archive: directories and regular files, names under 100 bytes (a PostgreSQL
// data directory's are), modes kept (PostgreSQL refuses a data directory others may read).

/** Files a running database keeps that a copy must not carry. */
const SKIPPED = new Set(['postmaster.pid', 'postmaster.opts'])

function tar(root: string): Buffer {
  const parts: Buffer[] = []
  const walk = (relative: string) => {
    const full = path.join(root, relative)
    for (const entry of fs
      .readdirSync(full, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      if (SKIPPED.has(entry.name)) continue
      const name = relative ? `${relative}/${entry.name}` : entry.name
      const stat = fs.statSync(path.join(root, name))
      if (entry.isDirectory()) {
        parts.push(header(`${name}/`, stat.mode, 0, '5'))
        walk(name)
      } else if (entry.isFile()) {
        const bytes = fs.readFileSync(path.join(root, name))
        parts.push(header(name, stat.mode, bytes.length, '0'), bytes)
        const pad = (512 - (bytes.length % 512)) % 512
        if (pad) parts.push(Buffer.alloc(pad))
      }
    }
  }
  walk('')
  parts.push(Buffer.alloc(1024))
  return Buffer.concat(parts)
}

function header(name: string, mode: number, size: number, type: '0' | '5'): Buffer {
  if (Buffer.byteLength(name) > 99) throw new Error(`a name too long for the archive: ${name}`)
  const block = Buffer.alloc(512)
  block.write(name, 0)
  block.write(`${(mode & 0o7777).toString(8).padStart(7, '0')}\0`, 100)
  block.write('0000000\0', 108)
  block.write('0000000\0', 116)
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124)
  block.write(
    `${Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
  )
  block.write(type, 156)
  block.write('ustar\0', 257)
  block.write('00', 263)
  block.write('        ', 148)
  let sum = 0
  for (const byte of block) sum += byte
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148)
  return block
}

/**
 * Unpacks an archive as it streams in, a chunk at a time: the whole archive (39 MB unpacked)
 * is never held, which would stay in the process's peak memory.
 */
async function untar(input: AsyncIterable<Buffer>, into: string): Promise<void> {
  fs.mkdirSync(into, { recursive: true, mode: 0o700 })
  let pending: Buffer = Buffer.alloc(0)
  /** The file being written: its descriptor, where the next bytes go, bytes left, padding. */
  let file: { fd: number; position: number; left: number; pad: number; size: number } | undefined
  let ended = false
  for await (const chunk of input) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk
    let at = 0
    while (!ended) {
      if (file) {
        const take = Math.min(file.left, pending.length - at)
        writeSparse(file, pending.subarray(at, at + take))
        at += take
        file.left -= take
        if (file.left > 0) break
        if (pending.length - at < file.pad) break
        at += file.pad
        finish(file)
        file = undefined
        continue
      }
      if (pending.length - at < 512) break
      const block = pending.subarray(at, at + 512)
      at += 512
      if (block.every((byte) => byte === 0)) {
        ended = true
        break
      }
      const name = block.toString('utf8', 0, 100).replace(/\0.*$/s, '')
      const mode = parseInt(block.toString('ascii', 100, 107), 8)
      const size = parseInt(block.toString('ascii', 124, 135), 8)
      const target = path.join(into, name)
      if (!target.startsWith(into + path.sep)) throw new Error(`an archive entry outside: ${name}`)
      if (block.toString('ascii', 156, 157) === '5') fs.mkdirSync(target, { recursive: true, mode })
      else
        file = {
          fd: fs.openSync(target, 'w', mode),
          position: 0,
          left: size,
          pad: (512 - (size % 512)) % 512,
          size,
        }
    }
    pending = pending.subarray(at)
  }
  if (file) throw new Error('the template archive ends in the middle of a file')
}

/**
 * Writes a chunk of a file where it belongs, leaving a chunk of zeros as a hole: a new
 * database's write-ahead log is a 16 MB file of zeros but for its first pages.
 */
function writeSparse(file: { fd: number; position: number }, bytes: Buffer): void {
  if (!bytes.every((byte) => byte === 0))
    fs.writeSync(file.fd, bytes, 0, bytes.length, file.position)
  file.position += bytes.length
}

function finish(file: { fd: number; size: number }): void {
  try {
    fs.ftruncateSync(file.fd, file.size)
  } finally {
    fs.closeSync(file.fd)
  }
}
