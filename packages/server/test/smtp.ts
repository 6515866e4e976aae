import { SMTPServer } from 'smtp-server'

// A real SMTP server on 127.0.0.1 for tests: it keeps every mail the server under test sends,
// so a test reads the mail and follows its link as the user would.

export interface ReceivedMail {
  to: string[]
  subject: string
  /** The text body, decoded (quoted-printable soft breaks and escapes undone). */
  text: string
}

export interface TestSmtp {
  url: string
  mails: ReceivedMail[]
  /** The next mail to `to` not yet taken, waiting for it up to `timeoutMs`. */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>
  close(): Promise<void>
}

function decode(raw: string): ReceivedMail & { headers: string } {
  const split = raw.indexOf('\r\n\r\n')
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
  let body = raw.slice(split + 4)
  if (/^content-transfer-encoding:\s*quoted-printable/im.test(headers))
    body = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  else if (/^content-transfer-encoding:\s*base64/im.test(headers))
    body = Buffer.from(body, 'base64').toString('utf8')
  const subject = /^subject:\s*(.*)$/im.exec(headers)?.[1] ?? ''
  return { headers, to: [], subject, text: body }
}

export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = []
  const taken = new Set<ReceivedMail>()
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const { headers: _headers, ...mail } = decode(Buffer.concat(chunks).toString('utf8'))
        mails.push({ ...mail, to: session.envelope.rcptTo.map((r) => r.address) })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as { port: number }).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async next(to, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs
      for (;;) {
        const mail = mails.find((m) => !taken.has(m) && m.to.includes(to))
        if (mail) {
          taken.add(mail)
          return mail
        }
        if (Date.now() > until) throw new Error(`no mail to ${to} within ${timeoutMs} ms`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
