// Entry point `@portico/sdk/version`: this SDK's version, the server's, and what the server offers.
export { sdkVersion } from '../sdk-version.ts'
export {
  checkVersion,
  compareVersions,
  getVersion,
  type CheckVersionParameters,
  type CheckVersionReturnType,
  type ServerVersion,
} from './check-version.ts'
export {
  getApiDescription,
  supportsOperation,
  type ApiDescription,
} from '../api-description/get-api-description.ts'
export { SdkVersionUnsupportedError } from '../errors/version.ts'
