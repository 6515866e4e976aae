import pkg from '../package.json' with { type: 'json' }

/** The server's own version, from its package.json. */
export const serverVersion: string = pkg.version
