// Builds the web app into dist/ and pre-renders Home into dist/index.html (Home shows
// without JavaScript and paints fast; the browser then hydrates it).
//   1. client build (vite build) → dist/
//   2. SSR build of src/entry-server.tsx → a throwaway directory
//   3. render `/` with it and inject the HTML, title and body class into dist/index.html; its
//      scripts (the entry and the Home page's chunks) load once the first frame is on screen
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { transform } from 'esbuild'
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
  const { prerender, routeTable } = await import(
    pathToFileURL(path.join(ssrDir, 'entry-server.js')).href
  )
  const page = await prerender(PRERENDERED_PATH)

  const indexPath = path.join(distDir, 'index.html')
  const template = await inlineStylesheets(
    await minifyInlineScripts(await fs.readFile(indexPath, 'utf8')),
  )
  const html = await inject(template, page, chunksOf(manifest, PRERENDERED_SOURCE))
  await fs.writeFile(indexPath, html)
  await writePageShells(template, routeTable())
  console.log(
    `pre-rendered ${PRERENDERED_PATH} into ${outName}/index.html (${page.html.length} chars)`,
  )
} finally {
  await fs.rm(ssrDir, { recursive: true, force: true })
}

/**
 * Every other page of the page table gets an HTML shell of its own in `_pages/`, with its title,
 * description and link-preview tags in the head and its body class, and `routes.json` tells
 * the server which shell answers which path (the `*` page with status 404).
 */
async function writePageShells(template, routes) {
  await fs.mkdir(path.join(distDir, '_pages'), { recursive: true })
  const table = []
  for (const route of routes) {
    let file = 'index.html'
    if (route.path !== PRERENDERED_PATH) {
      const name =
        route.path === '*'
          ? 'not-found'
          : route.path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')
      file = `_pages/${name}.html`
      let html = replaceOnce(
        template,
        '<div id="root"><!--app-html--></div>',
        '<div id="root"></div>',
      )
      html = withHead(html, route)
      html = replaceOnce(html, '<body>', `<body class="${escapeHtml(route.bodyClass)}">`)
      await fs.writeFile(path.join(distDir, file), html)
    }
    table.push({
      path: route.path,
      file,
      status: route.path === '*' ? 404 : 200,
      index: route.index,
      crawl: route.crawl,
      ...(route.params ? { params: route.params } : {}),
    })
  }
  await fs.writeFile(path.join(distDir, 'routes.json'), `${JSON.stringify(table, null, 2)}\n`)
  console.log(`wrote ${table.length - 1} page shells and routes.json`)
}

/** The page's title and description in the title, the meta description and the link previews. */
function withHead(html, page) {
  const title = escapeHtml(page.title)
  const description = escapeHtml(page.description)
  const meta = (attribute, name) =>
    new RegExp(`(<meta\\s+${attribute}="${name}"\\s+content=")[^"]*(")`)
  let out = html.replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
  for (const [attribute, name, value] of [
    ['name', 'description', description],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
  ]) {
    const pattern = meta(attribute, name)
    if (!pattern.test(out)) throw new Error(`index.html has no <meta ${attribute}="${name}">`)
    out = out.replace(pattern, (_, start, end) => `${start}${value}${end}`)
  }
  return out
}

/**
 * Vite leaves inline scripts as written (readable, commented in index.html); they count towards
 * the first load, so they are minified here. The server allows them by the hash of what ships.
 */
async function minifyInlineScripts(html) {
  let out = html
  for (const match of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) {
    const { code } = await transform(match[1], { loader: 'js', minify: true, target: 'es2015' })
    out = out.replace(match[0], () => `<script>${code.trim()}</script>`)
  }
  return out
}

/**
 * The app's stylesheet (a few KB) goes into the HTML itself: as a separate file it blocks the
 * first paint for one more round trip, the largest cost of the first load on a slow phone network.
 */
async function inlineStylesheets(html) {
  let out = html
  for (const match of html.matchAll(
    /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g,
  )) {
    const css = await fs.readFile(path.join(distDir, match[1]), 'utf8')
    out = out.replace(match[0], () => `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`)
  }
  return out
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

async function inject(template, page, chunks) {
  let html = replaceOnce(
    template,
    '<div id="root"><!--app-html--></div>',
    `<div id="root" data-prerendered="${PRERENDERED_PATH}">${page.html}</div>`,
  )
  html = withHead(html, page)
  html = await loadScriptsAfterFirstPaint(html, chunks)
  html = replaceOnce(html, '<body>', `<body class="${escapeHtml(page.bodyClass)}">`)
  return html
}

/**
 * The pre-rendered page is complete without script, so its script tag and module preloads give
 * way to an inline loader that fetches them once the first frame is on screen: fetched during the
 * first paint they compete with the HTML for a slow phone's bandwidth and count towards it in
 * Lighthouse's model (a script that finished before the first paint is taken to block it). The
 * page's own chunks are preloaded with the entry, so hydration does not wait for a second round
 * trip. A tab opened in the background paints nothing, so a timer starts the load anyway.
 */
async function loadScriptsAfterFirstPaint(html, chunks) {
  const entryTag = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>\s*/
  const entry = entryTag.exec(html)?.[1]
  if (!entry) throw new Error('index.html has no module entry script')
  const preloadTag = /<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">\s*/g
  const preloads = [...html.matchAll(preloadTag)].map((match) => match[1])
  for (const file of chunks) if (!preloads.includes(`/${file}`)) preloads.push(`/${file}`)
  const loader = `
    var started = false;
    function load() {
      if (started) return;
      started = true;
      var head = document.head;
      ${JSON.stringify(preloads)}.forEach(function (href) {
        var link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        link.href = href;
        head.appendChild(link);
      });
      var script = document.createElement('script');
      script.type = 'module';
      script.crossOrigin = '';
      script.src = ${JSON.stringify(entry)};
      head.appendChild(script);
    }
    try {
      // A browser without paint timing would only load at the timer: load at once there.
      if (PerformanceObserver.supportedEntryTypes.indexOf('paint') < 0) throw 0;
      new PerformanceObserver(function (list) {
        if (list.getEntriesByName('first-contentful-paint').length) load();
      }).observe({ type: 'paint', buffered: true });
    } catch (e) {
      load();
    }
    setTimeout(load, 3000);`
  const { code } = await transform(`;(function () {${loader}})()`, {
    loader: 'js',
    minify: true,
    target: 'es2015',
  })
  return html
    .replace(preloadTag, '')
    .replace(entryTag, () => `<script>${code.trim()}</script>\n    `)
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
