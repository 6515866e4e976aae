import nodemailer from 'nodemailer'
import type { MailConfig } from '../config/mail.ts'

// Sends the server's mails over SMTP. Built once per process; without SMTP_URL there is none,
// and whatever would send a mail refuses instead.

export interface Mail {
  to: string
  subject: string
  text: string
}

export interface Mailer {
  send(mail: Mail): Promise<void>
  close(): void
}

/** The mailer of `config`, or undefined when SMTP_URL is not set. */
export function createMailer(config: MailConfig): Mailer | undefined {
  if (!config.smtpUrl || !config.from) return undefined
  const transport = nodemailer.createTransport(config.smtpUrl)
  const from = config.from
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text })
    },
    close: () => transport.close(),
  }
}
