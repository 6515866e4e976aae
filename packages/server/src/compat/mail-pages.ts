import type { FastifyInstance, FastifyReply } from 'fastify'
import { MAX_PASSWORD_BYTES, hashPassword } from '../auth/passwords.ts'
import { ANY_OWNER } from '../objects/access.ts'
import type { CompatServices } from './call.ts'
import { MAIL_PAGES } from './password-users.ts'

// The pages the mailed links open, below the mount: the password reset form (a new password
// replaces the old one and ends every session; the link works once) and the email
// verification. Plain HTML forms, no script and no links: they work in any mail client's
// browser, and the token in their address reaches no other site. They are never cached.

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  )

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    )
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title>` +
        `<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;line-height:1.5}label{display:block;margin:1rem 0 .25rem}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem;font-size:1rem}</style>` +
        `</head><body><h1>${escape(title)}</h1>${body}</body></html>`,
    )
}

const paragraph = (text: string) => `<p>${escape(text)}</p>`

function resetForm(token: string, problem?: string) {
  return (
    (problem ? `<p role="alert">${escape(problem)}</p>` : '') +
    `<form method="post"><input type="hidden" name="token" value="${escape(token)}">` +
    `<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" required maxlength="${MAX_PASSWORD_BYTES}">` +
    `<label for="confirm">The same again</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required maxlength="${MAX_PASSWORD_BYTES}">` +
    `<button type="submit">Change password</button></form>`
  )
}

const LINK_DEAD = 'This link has expired or was already used. Ask for a new one from the app.'

/** The token of a request's query, or undefined when there is none that could be one. */
function tokenOf(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined
}

const described = (summary: string) => ({ schema: { tags: ['compatibility'], summary } })

/** Adds the pages to the mount (`app` is the mount's encapsulated instance). */
export function mailPages(app: FastifyInstance, services: CompatServices, mount: string): void {
  const { passwordUsers } = services
  const resetUrl = `${mount}/${MAIL_PAGES.reset}`
  const title = `${services.config.app.appName}: new password`

  app.get(
    resetUrl,
    described('Password reset page (the link a reset mail carries)'),
    async (request, reply) => {
      const token = tokenOf((request.query as { token?: unknown }).token)
      if (!token || !(await passwordUsers.mailTokenWorks(token, 'reset')))
        return page(reply, 400, title, paragraph(LINK_DEAD))
      return page(reply, 200, title, resetForm(token))
    },
  )

  app.post(
    resetUrl,
    described('Password reset form: sets the new password'),
    async (request, reply) => {
      // Under the mount every body that is not JSON arrives as bytes: a form is read here.
      const form = new URLSearchParams(
        Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '',
      )
      const token = tokenOf(form.get('token'))
      const password = form.get('password') ?? ''
      if (!token) return page(reply, 400, title, paragraph(LINK_DEAD))
      const limited = await services.windowCounter.add(
        `compat-reset-page:${request.ip}`,
        1,
        60_000,
        services.config.app.authRateLimit,
      )
      if (limited.count > services.config.app.authRateLimit)
        return page(reply, 429, title, paragraph('Too many attempts: try again in a minute.'))
      if (password === '' || password !== form.get('confirm'))
        return page(reply, 400, title, resetForm(token, 'The two passwords differ: type it twice.'))
      if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES)
        return page(
          reply,
          400,
          title,
          resetForm(token, `A password is at most ${MAX_PASSWORD_BYTES} bytes.`),
        )
      const passwordHash = await hashPassword(password)
      const userId = await passwordUsers.resetPassword(token, passwordHash)
      if (!userId) return page(reply, 400, title, paragraph(LINK_DEAD))
      await services.sessions.forget({ userId })
      return page(
        reply,
        200,
        title,
        paragraph(
          'Your password was changed. Log in with it in the app; other devices were signed out.',
        ),
      )
    },
  )

  app.get(
    `${mount}/${MAIL_PAGES.verify}`,
    described('Email verification (the link a verification mail carries)'),
    async (request, reply) => {
      const verifyTitle = `${services.config.app.appName}: email address`
      const token = tokenOf((request.query as { token?: unknown }).token)
      const used = token ? await passwordUsers.useMailToken(token, 'verify') : undefined
      if (!used || !(await passwordUsers.markEmailVerified(used.userId, used.email)))
        return page(reply, 400, verifyTitle, paragraph(LINK_DEAD))
      await services.objects.modify(
        { className: '_User', objectId: used.userId, userId: ANY_OWNER },
        (current) => ({ data: { ...current.data, emailVerified: true } }),
      )
      return page(reply, 200, verifyTitle, paragraph(`${used.email} is confirmed. Thank you.`))
    },
  )
}
