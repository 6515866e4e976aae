import { BaseError } from './base.ts'

/** The server no longer supports this SDK version (it is below the server's minimum). */
export class SdkVersionUnsupportedError extends BaseError {
  override name = 'SdkVersionUnsupportedError' as const
  readonly clientVersion: string
  readonly minimum: string
  constructor({ version, minimum }: { version: string; minimum: string }) {
    super(`SDK version ${version} is no longer supported by this server`, {
      details: `The server needs @portico/sdk ${minimum} or newer. Update the SDK.`,
    })
    this.clientVersion = version
    this.minimum = minimum
  }
}
export type SdkVersionUnsupportedErrorType = SdkVersionUnsupportedError & {
  name: 'SdkVersionUnsupportedError'
}
