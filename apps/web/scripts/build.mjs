// Builds the web app into dist/ and pre-renders Home into dist/index.html (Home shows
// without JavaScript and paints fast; the browser then hydrates it).
//   1. client build (vite build) → dist/
//   2. SSR build of src/entry-server.tsx → a throwaway directory
//   3. render `/` with it and inject the HTML, title and body class into dist/index.html, plus a
//      modulepreload of the Home page's chunk so hydration does not wait for a second round trip
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'vite'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// The browser tests build with test-only settings into their own folder (PORTICO_WEB_OUT_DIR),
// so the app `npm start` serves is never a test build.
const outName = process.env.PORTICO_WEB_OUT_DIR || 'dist'
const distDir = path.join(root, outName)
// Inside node_modules so the SSR bundle resolves react-dom etc. like the sources do.
const cacheDir = path.join(root, 'node_modules', '.cache')
await fs.mkdir(cacheDir, { recursive: true })
const ssrDir = await fs.mkdtemp(path.join(cacheDir, 'portico-ssr-'))
const PRERENDERED_PATH = '/'
const PRERENDERED_SOURCE = 'src/pages/home.tsx'

try {
  await build({
    root,
    logLevel: 'warn',
    build: { manifest: true, outDir: distDir, emptyOutDir: true },
  })
  const manifestPath = path.join(distDir, '.vite', 'manifest.json')
  const manifest = JSON.parse(await fs.readFile(manifestPath, 'utf8'))
  // The manifest is only needed here; do not publish it.
  await fs.rm(path.join(distDir, '.vite'), { recursive: true, force: true })
  await build({
    root,
    logLevel: 'warn',
    build: { ssr: 'src/entry-server.tsx', outDir: ssrDir, emptyOutDir: true, copyPublicDir: false },
  })
  const { prerender } = await import(pathToFileURL(path.join(ssrDir, 'entry-server.js')).href)
  const page = await prerender(PRERENDERED_PATH)

  const indexPath = path.join(distDir, 'index.html')
  const template = await fs.readFile(indexPath, 'utf8')
  const html = inject(template, page, chunksOf(manifest, PRERENDERED_SOURCE))
  await fs.writeFile(indexPath, html)
  console.log(
    `pre-rendered ${PRERENDERED_PATH} into ${outName}/index.html (${page.html.length} chars)`,
  )
} finally {
  await fs.rm(ssrDir, { recursive: true, force: true })
}

/** Replaces one marker in the template, failing loudly if it is missing. */
function replaceOnce(text, marker, replacement) {
  if (!text.includes(marker)) throw new Error(`index.html has no ${marker}`)
  return text.replace(marker, () => replacement)
}

/** The chunk files a lazily loaded source needs, minus the entry (already a script tag). */
function chunksOf(manifest, source) {
  const files = new Set()
  const visit = (key) => {
    const chunk = manifest[key]
    if (!chunk) throw new Error(`${key} is not in the Vite manifest`)
    if (chunk.isEntry || files.has(chunk.file)) return
    files.add(chunk.file)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  visit(source)
  return [...files]
}

function inject(template, page, preloads) {
  let html = replaceOnce(
    template,
    '<div id="root"><!--app-html--></div>',
    `<div id="root" data-prerendered="${PRERENDERED_PATH}">${page.html}</div>`,
  )
  html = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
  const links = preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
  html = replaceOnce(html, '</head>', `  ${links.join('\n    ')}\n  </head>`)
  html = replaceOnce(html, '<body>', `<body class="${escapeHtml(page.bodyClass)}">`)
  return html
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
