// Public entry point of @portico/sdk. Each module is also importable on its own
// (`@portico/sdk/rpc/connectNode`), which keeps bundles small.
export { BaseError, type BaseErrorParameters } from './errors/base.ts'
export {
  ChainUrlMissingError,
  ErrorResponseError,
  isNodeTransportError,
  NoResponseError,
  NodeConfigMissingError,
  UnexpectedRpcResponseError,
  type NodeTransportError,
} from './errors/rpc.ts'
export { InvalidConversionInputError, InvalidNumberError } from './errors/convert.ts'
export { fromDecimalToHex, fromHexToBigInt, fromHexToDecimal } from './convert.ts'
export {
  connectNode,
  type ChainIdInput,
  type ConnectNodeParameters,
  type NodeClient,
} from './rpc/connectNode.ts'
export { nodeDefaults } from './rpc/defaults.ts'
export { sdkVersion } from './version.ts'
export {
  BackendError,
  InvalidDateError,
  InvalidWireValueError,
  UnsavedFileError,
  type BackendErrorParameters,
} from './errors/backend.ts'
export {
  createBackendClient,
  type BackendClient,
  type BackendClientConfig,
  type BackendFetch,
  type HttpMethod,
  type RequestOptions,
} from './backend/client.ts'
