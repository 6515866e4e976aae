import { readFileSync } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import Module, { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

// Loading the site's cloud code (CLOUD_CODE): a file, or a folder (its `main.js` if it has one,
// as Parse Server loads `cloud/main.js`; else each script file in name order, as Moralis' CLI
// put a folder together). A `.mjs` file, or a `.js` one written as a module (`import` /
// `export`), is imported as ESM; other `.js` and `.cjs` files run as CommonJS wherever they
// are (a Parse app's `cloud/main.js` uses `require`, a Moralis one only globals).

const SCRIPT = /\.(c|m)?js$/

/** The files `where` names, in the order they are loaded. */
export async function cloudFiles(where: string): Promise<string[]> {
  const resolved = path.resolve(where)
  const info = await stat(resolved).catch(() => {
    throw new Error(`CLOUD_CODE ${where} does not exist: give a file or a folder of cloud code.`)
  })
  if (info.isFile()) return [resolved]
  const names = (await readdir(resolved)).filter((name) => SCRIPT.test(name)).sort()
  const main = names.find((name) => /^main\.(c|m)?js$/.test(name))
  if (main) return [path.join(resolved, main)]
  if (names.length === 0) throw new Error(`CLOUD_CODE ${where} has no .js, .cjs or .mjs file.`)
  return names.map((name) => path.join(resolved, name))
}

/** Runs one file of cloud code. */
export async function loadCloudFile(file: string): Promise<void> {
  if (file.endsWith('.mjs')) {
    await import(pathToFileURL(file).href)
    return
  }
  if (file.endsWith('.cjs')) {
    createRequire(file)(file)
    return
  }
  const source = await readFile(file, 'utf8')
  if (looksLikeModule(source)) {
    await import(pathToFileURL(file).href)
    return
  }
  compileCommonJs(file, source, new Map())
}

type CompiledModule = Module & {
  _compile(source: string, filename: string): void
  paths: string[]
  filename: string
  loaded: boolean
}

/**
 * Runs `file` as CommonJS whatever the nearest package.json says (a Parse app's folder may sit
 * in an ESM project), as Node compiles a required file; the files it requires by relative path
 * are compiled the same way, the rest (packages) required as usual.
 */
function compileCommonJs(file: string, source: string, compiled: Map<string, CompiledModule>) {
  const module = new Module(file) as CompiledModule
  module.filename = file
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(
    path.dirname(file),
  )
  compiled.set(file, module)
  const plain = createRequire(file)
  module.require = ((specifier: string) => {
    if (!specifier.startsWith('.')) return plain(specifier)
    const target = plain.resolve(specifier)
    const known = compiled.get(target)
    if (known) return known.exports
    if (!/\.c?js$/.test(target)) return plain(specifier)
    const text = readFileSync(target, 'utf8')
    if (looksLikeModule(text)) return plain(specifier)
    return compileCommonJs(target, text, compiled).exports
  }) as NodeJS.Require
  module._compile(source, file)
  module.loaded = true
  return module
}

/** Whether a file's text uses ESM syntax (a top-level `import … from` or `export`). */
function looksLikeModule(source: string): boolean {
  return /^\s*(import\s[^(]|import\{|export\s)/m.test(source)
}
