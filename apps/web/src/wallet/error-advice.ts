/** What the dialog shows for a failed sign-in: the catalogue message and what to do next. */
export interface ErrorAdvice {
  message: string
  advice: string
}

interface ErrorLike {
  name?: string
  shortMessage?: string
  message?: string
  failure?: string
  code?: number | string
  cause?: unknown
  metaMessages?: string[]
}

/** The first error in the cause chain that `test` accepts. */
function find(error: unknown, test: (e: ErrorLike) => boolean): ErrorLike | undefined {
  let current: unknown = error
  for (let depth = 0; current && depth < 10; depth++) {
    if (typeof current === 'object' && test(current as ErrorLike)) return current as ErrorLike
    current = (current as ErrorLike).cause
  }
  return undefined
}

const notConfigured = (what: string, variable: string) =>
  `This site has not set up ${what} yet (${variable}). Choose another way to connect, or ask the site owner.`

/**
 * Maps an error to words for the user. Branches on `name` and `code`, never on message text
 *; the message shown is the error's `shortMessage`, the catalogue's wording.
 */
export function errorAdvice(error: unknown): ErrorAdvice {
  const top = (error ?? {}) as ErrorLike
  const message = top.shortMessage ?? top.message ?? 'Something went wrong'
  const rejected = find(error, (e) => e.code === 4001 || e.name === 'UserRejectedRequestError')
  if (rejected) {
    // The wallet's own words ("User rejected the request.") blame the visitor and say nothing
    // of what to do: the headline is ours.
    return {
      message: 'You declined the sign-in in your wallet',
      advice:
        'Nothing was signed. When you are ready, press Try again and approve the message in your wallet.',
    }
  }
  switch (top.name) {
    case 'NoBrowserWalletError':
      return {
        message,
        advice:
          'Install a browser wallet extension and reload this page, or use WalletConnect, email or social login.',
      }
    case 'WalletConnectError':
      return {
        message,
        advice:
          top.failure === 'project id missing'
            ? notConfigured('WalletConnect', 'VITE_WALLETCONNECT_PROJECT_ID')
            : 'Check your internet connection and try again, or use another way to connect.',
      }
    case 'Web3AuthError':
      return {
        message,
        advice:
          top.failure === 'client id missing'
            ? notConfigured('social login', 'VITE_WEB3AUTH_CLIENT_ID')
            : 'Try again, or use another way to connect.',
      }
    case 'MagicLinkError':
      return {
        message,
        advice:
          top.failure === 'API key missing'
            ? notConfigured('email sign-in', 'VITE_MAGIC_API_KEY')
            : 'Check the email address and try again.',
      }
    case 'ChainNotAllowedError':
      return { message, advice: top.metaMessages?.[0] ?? 'Switch your wallet to another network.' }
    case 'BackendError':
      return {
        message,
        advice:
          top.code === 'no_response'
            ? 'The server could not be reached. Check your connection and try again.'
            : 'Try signing in again.',
      }
    default:
      return { message, advice: 'Try again, or choose another way to connect.' }
  }
}
