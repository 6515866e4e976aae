#!/usr/bin/env node
// Checks the module graphs of the server, the SDK and the web app: no import cycles, and every
// module on a floor that imports only from its own floor or below. Floors are named by folder
// (or by a top-level file), lowest first, so a new module in a folder takes its folder's floor
// and a new folder must be given one. Type-only imports count too: they vanish at run time but
// still tie the modules' meanings together.
//
//   node scripts/check-imports.mjs            every package
//   node scripts/check-imports.mjs server     one of them
import fs from 'node:fs'
import path from 'node:path'

const packages = {
  server: {
    root: 'packages/server/src',
    floors: [
      ['config/', 'errors.ts', 'version.ts'],
      ['db/'],
      // What every feature stands on.
      ['http/', 'idempotency/', 'audit/', 'files/', 'rpc/', 'mail/'],
      ['objects/'],
      ['auth/', 'roles/', 'sync/', 'events/', 'functions.ts'],
      ['live/', 'import/', 'addresses/'],
      ['compat/', 'cloud/', 'web3api/'],
      // The console.
      ['admin/'],
      // What puts the server together.
      [
        'meta/',
        'commands/',
        'services.ts',
        'shared-settings.ts',
        'site-module.ts',
        'known-syncs.ts',
        'app.ts',
        'memory.ts',
        'cli.ts',
      ],
    ],
  },
  sdk: {
    root: 'packages/sdk/src',
    floors: [
      // The wire contract and the values everything shares.
      ['wire/', 'sdk-version.ts', 'chain-names.ts'],
      ['errors/', 'convert.ts'],
      ['rpc/', 'backend/', 'store/'],
      ['api-description/', 'version/', 'auth/', 'events/', 'wallet/'],
      ['portico/'],
      ['index.ts'],
    ],
  },
  web: {
    root: 'apps/web/src',
    floors: [
      ['storage/', 'site/', 'styles.css'],
      ['theme/', 'reveal/', 'backend/', 'tracking/', 'ui/'],
      ['version/', 'background/', 'profile/'],
      ['wallet/'],
      ['shell/'],
      ['analytics/'],
      ['admin/'],
      ['pages/'],
      ['app.tsx', 'entry-server.tsx', 'main.tsx'],
    ],
  },
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g

function check({ root: relativeRoot, floors }) {
  const root = path.resolve(relativeRoot)
  const files = []
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== '__snapshots__') walk(full)
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(full)
    }
  }
  walk(root)

  const rel = (file) => path.relative(root, file)
  const problems = []
  const floorOf = (file) => {
    const name = rel(file)
    const top = name.includes(path.sep) ? name.slice(0, name.indexOf(path.sep) + 1) : name
    const floor = floors.findIndex((names) => names.includes(top))
    if (floor < 0)
      problems.push(`${name} has no floor: give ${top} one in scripts/check-imports.mjs`)
    return floor
  }
  const graph = new Map()
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8')
    const targets = []
    for (const match of text.matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(file), match[1])
      if (target.startsWith(root + path.sep) && fs.existsSync(target)) targets.push(target)
    }
    graph.set(file, targets)
  }
  const floor = new Map([...graph.keys()].map((file) => [file, floorOf(file)]))
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const to = floor.get(target) ?? floorOf(target)
      if (to > floor.get(file))
        problems.push(`${rel(file)} imports ${rel(target)}, on a higher floor`)
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
  return { files: files.length, problems }
}

const chosen = process.argv[2] ? [process.argv[2]] : Object.keys(packages)
let failed = false
for (const name of chosen) {
  const spec = packages[name]
  if (!spec) {
    console.error(`no package "${name}": one of ${Object.keys(packages).join(', ')}`)
    process.exit(2)
  }
  const { files, problems } = check(spec)
  if (problems.length) {
    failed = true
    console.error(problems.join('\n'))
    console.error(`${problems.length} import problem(s) in ${spec.root}`)
  } else console.log(`imports of ${name}: ${files} modules, no cycle, floors respected`)
}
if (failed) process.exit(1)
