import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { ServerConfig } from '../config/server.ts'

/**
 * SHA-256 sources of the inline scripts in the built app's `index.html` (the theme script that
 * must run before first paint), so the CSP allows exactly them and no other inline script.
 */
export function inlineScriptHashes(webDir: string | undefined): string[] {
  if (!webDir) return []
  let html: string
  try {
    html = fs.readFileSync(path.join(webDir, 'index.html'), 'utf8')
  } catch {
    return []
  }
  const hashes = new Set<string>()
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    hashes.add(`'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`)
  }
  return [...hashes]
}

/** The content security policy of HTML pages: own scripts and the hashed inline ones only. */
export function contentSecurityPolicy(scriptHashes: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    // Inline style attributes come from React and the chart library; scripts are what matter.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // Wallets and nodes the user chooses live on other hosts (RPC URLs, WalletConnect relay).
    "connect-src 'self' https: wss:",
    // Email-link and social-login wallets run in their vendors' iframes.
    'frame-src https:',
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** The security headers every answer carries besides its CSP. */
export function answerHeaders(https: boolean): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin-allow-popups',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  }
}

/** What a JSON answer's CSP is: nothing may run. */
export const jsonPolicy = "default-src 'none'; frame-ancestors 'none'"

/**
 * The headers an API answer that can never be a page needs (OWASP's set for REST answers): the
 * CSP and nosniff keep it from being run or rendered, framing is refused, HSTS over https. The
 * others above govern documents (referrers, popups, device permissions) and would only cost
 * bytes on every JSON-RPC call.
 */
export function apiAnswerHeaders(https: boolean): Record<string, string> {
  const all = answerHeaders(https)
  return {
    'content-security-policy': jsonPolicy,
    'x-content-type-options': all['x-content-type-options']!,
    'x-frame-options': all['x-frame-options']!,
    ...(https ? { 'strict-transport-security': all['strict-transport-security']! } : {}),
  }
}

/**
 * Security headers on every answer. HTML gets the full CSP; everything else
 * (JSON, static files) gets a CSP that forbids running anything, so a reflected or served document
 * cannot become a page. No `sandbox` there: same-origin files such as the favicon keep their
 * origin (tests and tools open them to reach localStorage).
 */
export const securityHeaders = fp(async function securityHeaders(
  app: FastifyInstance,
  { config }: { config: ServerConfig },
) {
  const htmlPolicy = contentSecurityPolicy(inlineScriptHashes(config.webDir))
  const commonHeaders = answerHeaders(config.app.publicOrigins[0]!.startsWith('https:'))
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '')
    // A route that set its own policy (file downloads) keeps it.
    if (!reply.hasHeader('content-security-policy')) {
      reply.header(
        'content-security-policy',
        type.startsWith('text/html') ? htmlPolicy : jsonPolicy,
      )
    }
    reply.headers(commonHeaders)
    return payload
  })
})
