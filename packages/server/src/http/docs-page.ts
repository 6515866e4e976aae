// The /api/docs page: the OpenAPI document rendered on the server as plain HTML (what a reader
// without scripts gets), then replaced by Scalar's API reference (search, collapsible
// operations, try-it) served from this server's own copy of its npm package: no CDN, and the
// page's policy lets it talk to this server only. Its one inline script applies the theme the
// visitor chose in the app (the same localStorage key) before first paint; the route allows
// exactly that script by its hash.

/** Runs before first paint: light unless the visitor chose dark, or system with a dark system. */
export const docsThemeScript =
  "(function(){var d=false;try{var t=localStorage.getItem('theme');d=t==='dark'||(t==='system'&&matchMedia('(prefers-color-scheme: dark)').matches)}catch(e){}document.documentElement.setAttribute('data-theme',d?'dark':'light')})()"

interface Operation {
  tags?: string[]
  summary?: string
  description?: string
  parameters?: {
    name: string
    in: string
    required?: boolean
    schema?: unknown
    description?: string
  }[]
  requestBody?: { content?: Record<string, { schema?: unknown }> }
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: unknown }> }
  >
}

export interface OpenApiDocument {
  info: { title: string; version: string }
  paths?: Record<string, Record<string, Operation>>
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

// A schema wider than the page scrolls inside its block, which the keyboard must reach too.
const json = (value: unknown) => `<pre tabindex="0">${escape(JSON.stringify(value, null, 2))}</pre>`

function renderOperation(method: string, path: string, op: Operation): string {
  const id = `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-')
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<li><code>${escape(p.name)}</code> (${escape(p.in)}${p.required ? ', required' : ''})${
          p.description ? ` — ${escape(p.description)}` : ''
        }</li>`,
    )
    .join('')
  const body = op.requestBody?.content
    ? Object.entries(op.requestBody.content)
        .map(
          ([type, media]) =>
            `<h4>Request body <code>${escape(type)}</code></h4>${json(media.schema ?? {})}`,
        )
        .join('')
    : ''
  const responses = Object.entries(op.responses ?? {})
    .map(([status, response]) => {
      const schema = Object.values(response.content ?? {})[0]?.schema
      return `<details><summary><b>${escape(status)}</b> ${escape(response.description ?? '')}</summary>${
        schema ? json(schema) : ''
      }</details>`
    })
    .join('')
  return `<section id="${id}"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p>${escape(op.summary ?? '')}</p>${op.description ? `<p>${escape(op.description)}</p>` : ''}
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}${body}<h4>Responses</h4>${responses}</section>`
}

/**
 * Starts the reference on the plain page once its bundle has loaded: in the visitor's theme,
 * without the fonts, telemetry and AI agent it would fetch from elsewhere, requests sent to
 * this origin. Its mount point is not `#api-reference`: the bundle mounts a second reference of
 * its own on an element of that id as soon as it runs, with its default settings (the vendor's
 * fonts, its registry of APIs through the vendor's proxy). Served as a file (the page's policy
 * allows scripts from the server only).
 */
export const docsStartScript = `(function () {
  var mount = document.getElementById('reference')
  if (!window.Scalar || !mount) return
  var dark = document.documentElement.getAttribute('data-theme') === 'dark'
  window.Scalar.createApiReference(mount, {
    url: '/api/openapi.json',
    forceDarkModeState: dark ? 'dark' : 'light',
    hideDarkModeToggle: true,
    withDefaultFonts: false,
    // The system's fonts (the bundle's own would be fetched from the vendor's host), and
    // muted text and method colours dark (or light) enough to read on the page's background.
    // The mode classes sit on <body> itself as well as inside the reference.
    customCss:
      '.scalar-app,.light-mode,.dark-mode{--scalar-font:system-ui,sans-serif!important;--scalar-font-code:ui-monospace,monospace!important}' +
      '.light-mode{--scalar-color-2:#3b4350!important;--scalar-color-3:#4a5361!important;--scalar-color-green:#0a6b2f!important;--scalar-color-blue:#1d4ed8!important;--scalar-color-orange:#9a4a00!important;--scalar-color-red:#b3261e!important;--scalar-color-purple:#6b21a8!important;--scalar-color-yellow:#6b5000!important}' +
      '.dark-mode{--scalar-color-2:#d0d7e0!important;--scalar-color-3:#b4bfcc!important;--scalar-color-green:#6ee7a0!important;--scalar-color-blue:#8cb4ff!important;--scalar-color-orange:#ffb870!important;--scalar-color-red:#ff9a92!important;--scalar-color-purple:#d8b4fe!important;--scalar-color-yellow:#fde68a!important}',
    telemetry: false,
    agent: { disabled: true },
    showDeveloperTools: 'never',
    hideClientButton: true,
    servers: [{ url: location.origin, description: 'This server' }],
  })
  var plain = document.getElementById('docs-plain')
  if (plain) plain.hidden = true
  // What the reference's own markup leaves out for assistive technology, added as it renders:
  // a name for its icon-only copy buttons and for the clients picker (whose text is hidden on
  // narrow screens), the picker counted as one of the client tabs it sits among, and a tab stop
  // on the lists of operations that scroll. The whole body: the try-it client opens outside
  // the mount point.
  function mend() {
    var root = document.body
    root.querySelectorAll('button.scalar-code-copy:not([aria-label])').forEach(function (b) {
      b.setAttribute('aria-label', 'Copy code')
    })
    root.querySelectorAll('[role=tablist] button.client-libraries__select:not([role])').forEach(
      function (b) {
        b.setAttribute('role', 'tab')
        b.setAttribute('aria-selected', 'false')
        b.setAttribute('aria-haspopup', 'true')
        b.setAttribute('aria-label', 'More clients')
      },
    )
    root.querySelectorAll('ul.endpoints:not([tabindex])').forEach(function (list) {
      list.setAttribute('tabindex', '0')
    })
    // The try-it client: its code editors named after their section (the answer's as such),
    // the switches that send a parameter or not named, a popover button without the role
    // "none" that forbids its label, and no aria-controls naming a panel that is not there.
    root
      .querySelectorAll('.cm-content[role=textbox]:not([aria-label]):not([aria-labelledby])')
      .forEach(function (editor) {
        var section = editor.closest('section[aria-labelledby]')
        var heading = section && document.getElementById(section.getAttribute('aria-labelledby'))
        var name = heading && heading.textContent ? heading.textContent.trim() : ''
        if (editor.getAttribute('contenteditable') === 'false') name = 'Response body'
        editor.setAttribute('aria-label', name || 'Value')
      })
    root
      .querySelectorAll('[role=table] input[type=checkbox]:not([aria-label]):not([id])')
      .forEach(function (box) {
        box.setAttribute('aria-label', 'Send this parameter')
      })
    root.querySelectorAll('button[role=none][aria-label]').forEach(function (b) {
      b.removeAttribute('role')
    })
    root.querySelectorAll('button[aria-controls]').forEach(function (b) {
      if (!document.getElementById(b.getAttribute('aria-controls'))) {
        b.removeAttribute('aria-controls')
      }
    })
  }
  var queued = false
  new MutationObserver(function () {
    if (queued) return
    queued = true
    requestAnimationFrame(function () {
      queued = false
      mend()
    })
  }).observe(document.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['aria-controls', 'role'],
  })
})()
`

/** The whole page, grouped by tag, with a table of contents. */
export function renderDocsPage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>()
  const toc = new Map<string, string[]>()
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'other'
      byTag.set(tag, [...(byTag.get(tag) ?? []), renderOperation(method, path, op)])
      const id = `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-')
      toc.set(tag, [
        ...(toc.get(tag) ?? []),
        `<li><a href="#${id}">${method.toUpperCase()} ${escape(path)}</a></li>`,
      ])
    }
  }
  const title = `${escape(doc.info.title)} ${escape(doc.info.version)}`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — API documentation</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<script>${docsThemeScript}</script>
<script src="/api/docs/reference.js" defer></script>
<script src="/api/docs/start.js" defer></script>
<style>
:root{color-scheme:light;font-family:system-ui,sans-serif;line-height:1.5;background:#fff;color:#1b1f24}
:root[data-theme=dark]{color-scheme:dark;background:#0f141a;color:#e6e9ee}
body{margin:0}
#docs-plain{max-width:60rem;margin:0 auto;padding:1rem}
#reference{max-width:100vw;overflow-x:hidden}
pre{overflow:auto;padding:.75rem;background:color-mix(in srgb,currentColor 8%,transparent);border-radius:.4rem;font-size:.85rem}
section{border-top:1px solid color-mix(in srgb,currentColor 20%,transparent);padding:.5rem 0}
.m{display:inline-block;min-width:4.5rem;font-size:.8rem;padding:.1rem .4rem;border-radius:.3rem;border:1px solid}
a{color:inherit}
</style></head>
<body><div id="reference"></div><div id="docs-plain"><header><p><a href="/">← Back to the site</a></p><h1>${title}</h1><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p></header>
<nav aria-label="Operations">${[...toc]
    .map(([tag, items]) => `<h2>${escape(tag)}</h2><ul>${items.join('')}</ul>`)
    .join('')}</nav>
<main>${[...byTag].map(([tag, ops]) => `<h2>${escape(tag)}</h2>${ops.join('')}`).join('')}</main>
</div></body></html>`
}
