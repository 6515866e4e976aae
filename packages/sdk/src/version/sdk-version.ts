import pkg from '../../package.json' with { type: 'json' }

/** This SDK's version (1.5.9), sent to the server as the client version on every request. */
export const sdkVersion: string = pkg.version
