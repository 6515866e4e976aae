// The words of the Home page: a landing page for the site's visitors. Rewrite them for your site;
// the page's layout (pages/home.tsx) stays.

/** The ways to sign in this build offers beside a browser wallet (each needs its vendor's key). */
export interface SignInWays {
  phoneWallet: boolean
  email: boolean
  social: boolean
}

/** `a`, `a or b`, `a, b or c`. */
const either = (items: string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`

/** The page's words, naming only the sign-in ways the build has: a way it lacks is a dead end. */
export const homeContent = (ways: SignInWays) =>
  ({
    eyebrow: 'Welcome',
    heading: 'Your wallet is your account here',
    lead: `Connect ${either(
      [
        'a browser wallet',
        ways.phoneWallet && 'a phone wallet',
        ways.email && 'your email',
        ways.social && 'a social account',
      ].filter((way) => typeof way === 'string'),
    )}, sign one short message, and you are in. No password to remember, and your profile lives on this site’s own server.`,
    primary: { label: 'Go to your account', href: '/account' },
    secondary: { label: 'How it works', href: '#how-it-works' },
    stepsHeading: 'How it works',
    steps: [
      {
        id: 'connect',
        title: 'Connect',
        text: `${either(
          [
            'Choose a wallet in your browser',
            ways.phoneWallet && 'scan a code with a phone wallet',
            ways.email && 'use an email link',
            ways.social && 'sign in with a social account',
          ].filter((way) => typeof way === 'string'),
        )}.`,
      },
      {
        id: 'sign',
        title: 'Sign one message',
        text: 'Your wallet shows a short message naming this site. Signing it costs nothing and sends no transaction.',
      },
      {
        id: 'account',
        title: 'Use your account',
        text: 'Your profile and sessions belong to your wallet. Sign out here, or everywhere, from your account page.',
      },
    ],
    closing: {
      heading: 'Ready when you are',
      text: 'Connect your wallet to get started. You can sign out at any time.',
    },
  }) as const
