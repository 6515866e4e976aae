// Declarations emitted by tsc keep the sources' `.ts` import paths, which a consumer's compiler
// cannot follow (only `.d.ts` files ship): point them at the `.js` files next to them instead.
// Usage: node scripts/rewrite-declaration-imports.mjs <dist folder>
import fs from 'node:fs'
import path from 'node:path'

const root = process.argv[2]
if (!root) throw new Error('usage: rewrite-declaration-imports.mjs <dist folder>')

const relativeTs = /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+?)\.tsx?(['"])/g
let files = 0
for (const entry of fs.readdirSync(root, { recursive: true })) {
  const file = path.join(root, String(entry))
  if (!file.endsWith('.d.ts')) continue
  const text = fs.readFileSync(file, 'utf8')
  const rewritten = text.replace(relativeTs, '$1$2.js$3')
  if (rewritten !== text) {
    fs.writeFileSync(file, rewritten)
    files++
  }
}
console.log(`${root}: import paths of ${files} declaration files now end in .js`)
