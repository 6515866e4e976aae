// The words of the Home page: a landing page for the site's visitors. Rewrite them for your site;
// the page's layout (pages/home.tsx) stays.

export const homeContent = {
  eyebrow: 'Welcome',
  heading: 'Your wallet is your account here',
  lead: 'Connect a browser wallet, a phone wallet or your email, sign one short message, and you are in. No password to remember, and your profile lives on this site’s own server.',
  primary: { label: 'Go to your account', href: '/account' },
  secondary: { label: 'How it works', href: '#how-it-works' },
  stepsHeading: 'How it works',
  steps: [
    {
      id: 'connect',
      title: 'Connect',
      text: 'Choose a wallet in your browser, scan a code with a phone wallet, or use an email link.',
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
} as const
