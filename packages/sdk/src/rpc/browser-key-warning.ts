let warned = false

/** True when running in a browser page, where anything in the bundle is public. */
function inBrowser(): boolean {
  // Through globalThis so the module also type-checks without the DOM lib (server code imports it in tests).
  const scope = globalThis as { window?: { document?: unknown } }
  return typeof scope.window === 'object' && typeof scope.window.document === 'object'
}

/**
 * Warns once per page when an API key is used from browser code: the key ships in the bundle,
 * so anyone can copy it. A signed-in session is the safer way for browsers to use the gateway.
 */
export function warnIfKeyInBrowser(warn: (message: string) => void = console.warn): void {
  if (warned || !inBrowser()) return
  warned = true
  warn(
    '[@portico/sdk] speedyNodeApiKey is used in a browser build, so the key is public. ' +
      'Limit what it may do on the server, or let signed-in users reach the gateway without a key.',
  )
}
