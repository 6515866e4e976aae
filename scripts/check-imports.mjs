#!/usr/bin/env node
// Checks the server's module graph: no import cycles, and no import from a lower layer to a
// higher one. Layers, lowest first: the configuration and shared values (`config/`, `errors.ts`,
// `version.ts`), the database (`db/`), then the features. A lower layer never imports a higher one,
// so each can be read and tested without what sits above it.
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(process.argv[2] ?? 'packages/server/src')
const files = []
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) walk(full)
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(full)
  }
}
walk(root)

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g
const graph = new Map()
for (const file of files) {
  const text = fs.readFileSync(file, 'utf8')
  const targets = []
  for (const match of text.matchAll(IMPORT)) {
    // Type-only imports vanish at run time but still tie the modules' meanings together.
    const target = path.resolve(path.dirname(file), match[1])
    if (target.startsWith(root + path.sep) && fs.existsSync(target)) targets.push(target)
  }
  graph.set(file, targets)
}

const rel = (file) => path.relative(root, file)
const layerOf = (file) => {
  const name = rel(file)
  if (/^(config\/|errors\.ts$|version\.ts$)/.test(name)) return 0
  if (name.startsWith('db/')) return 1
  return 2
}
const problems = []
for (const [file, targets] of graph) {
  for (const target of targets) {
    if (layerOf(target) > layerOf(file))
      problems.push(`${rel(file)} imports ${rel(target)}, a higher layer`)
  }
}

// Cycles: Tarjan's strongly connected components.
let index = 0
const stack = []
const state = new Map()
const strongConnect = (node) => {
  const entry = { index, low: index, onStack: true }
  index++
  state.set(node, entry)
  stack.push(node)
  for (const next of graph.get(node) ?? []) {
    const seen = state.get(next)
    if (!seen) {
      strongConnect(next)
      entry.low = Math.min(entry.low, state.get(next).low)
    } else if (seen.onStack) entry.low = Math.min(entry.low, seen.index)
  }
  if (entry.low === entry.index) {
    const component = []
    let member
    do {
      member = stack.pop()
      state.get(member).onStack = false
      component.push(member)
    } while (member !== node)
    if (component.length > 1)
      problems.push(`import cycle: ${component.map(rel).sort().join(' → ')}`)
  }
}
for (const file of graph.keys()) if (!state.has(file)) strongConnect(file)

if (problems.length) {
  console.error(problems.join('\n'))
  console.error(`${problems.length} import problem(s) in ${rel(root) || root}`)
  process.exit(1)
}
console.log(`imports: ${files.length} modules, no cycle, layers respected`)
