import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { migrationsFolder, openDatabase } from './client.ts'
import { saveTemplate, templateKey } from './pglite-template.ts'

// Run by the build: makes the embedded database's template (pglite-template.ts) beside the
// built server, so that a new installation's first start opens a ready database.

const into = path.resolve(process.argv[2] ?? path.dirname(fileURLToPath(import.meta.url)))
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-template-'))
try {
  const handle = await openDatabase({ kind: 'pglite', dir })
  await handle.close()
  const file = saveTemplate(path.join(dir, 'pglite'), templateKey(migrationsFolder), into)
  console.log(`embedded database template: ${path.relative(process.cwd(), file)}`)
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
