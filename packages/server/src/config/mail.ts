import type { Env } from './values.ts'

// Where the server's mail goes: password resets and email verifications of password users.

export interface MailConfig {
  /** The SMTP server (SMTP_URL, `smtp://user:pass@host:587` or `smtps://…`); undefined → no mail. */
  smtpUrl: string | undefined
  /** The sender (MAIL_FROM, `Shop <no-reply@shop.example>`); required with SMTP_URL. */
  from: string | undefined
}

/** Reads SMTP_URL and MAIL_FROM; a problem is pushed onto `problems`. */
export function loadMailConfig(env: Env, problems: string[]): MailConfig {
  const smtpUrl = env.SMTP_URL?.trim() || undefined
  const from = env.MAIL_FROM?.trim() || undefined
  if (smtpUrl !== undefined) {
    let protocol = ''
    try {
      protocol = new URL(smtpUrl).protocol
    } catch {
      // Reported below: the URL's own text may hold a password, so it is not repeated.
    }
    if (protocol !== 'smtp:' && protocol !== 'smtps:')
      problems.push(
        'SMTP_URL is an smtp:// or smtps:// URL (e.g. smtp://user:pass@mail.example:587)',
      )
    if (from === undefined)
      problems.push(
        'MAIL_FROM is required with SMTP_URL: the sender of the mails (Shop <no-reply@shop.example>)',
      )
  }
  if (from !== undefined && !/^[^\r\n]*<?[^\s@<>]+@[^\s@<>]+>?$/.test(from))
    problems.push(
      `MAIL_FROM is an email address, optionally with a name (got "${from.slice(0, 80)}")`,
    )
  return { smtpUrl, from }
}
