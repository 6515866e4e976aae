import { describe, expect, it } from 'vitest'
import { loadMailConfig } from './mail.ts'

describe('the mail settings', () => {
  const load = (env: Record<string, string>) => {
    const problems: string[] = []
    return { config: loadMailConfig(env, problems), problems }
  }

  it('are off by default, and read SMTP_URL with MAIL_FROM', () => {
    expect(load({})).toEqual({ config: { smtpUrl: undefined, from: undefined }, problems: [] })
    expect(
      load({ SMTP_URL: 'smtps://me:secret@mail.example:465', MAIL_FROM: 'Shop <a@shop.example>' }),
    ).toEqual({
      config: { smtpUrl: 'smtps://me:secret@mail.example:465', from: 'Shop <a@shop.example>' },
      problems: [],
    })
  })

  it('name what is wrong without repeating a URL that may hold a password', () => {
    const { problems } = load({ SMTP_URL: 'http://me:secret@mail.example' })
    expect(problems).toEqual([
      expect.stringContaining('SMTP_URL is an smtp:// or smtps:// URL'),
      expect.stringContaining('MAIL_FROM is required with SMTP_URL'),
    ])
    expect(problems.join()).not.toContain('secret')
    expect(load({ MAIL_FROM: 'not an address' }).problems).toEqual([
      expect.stringContaining('MAIL_FROM is an email address'),
    ])
  })
})
