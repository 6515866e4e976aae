import { describe, expect, it } from 'vitest'
import { homeContent } from './home-content.ts'

// The landing page names only the ways to sign in that the build was given keys for.

const connectStep = (content: ReturnType<typeof homeContent>) =>
  content.steps.find((step) => step.id === 'connect')!.text

describe('the home page copy', () => {
  it('offers a browser wallet alone when no vendor is set up', () => {
    const content = homeContent({ phoneWallet: false, email: false, social: false })
    expect(content.lead).toMatch(/^Connect a browser wallet, sign one short message/)
    expect(connectStep(content)).toBe('Choose a wallet in your browser.')
    expect(JSON.stringify(content)).not.toMatch(/phone|email|social/i)
  })

  it('names each way the build has, in one list', () => {
    const content = homeContent({ phoneWallet: true, email: true, social: false })
    expect(content.lead).toMatch(/^Connect a browser wallet, a phone wallet or your email, sign/)
    expect(connectStep(content)).toBe(
      'Choose a wallet in your browser, scan a code with a phone wallet or use an email link.',
    )
    expect(JSON.stringify(content)).not.toMatch(/social/i)
    expect(homeContent({ phoneWallet: false, email: false, social: true }).lead).toMatch(
      /^Connect a browser wallet or a social account, sign/,
    )
  })
})
