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
  BatchError,
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
export { decode, encode, type DecodeErrorType, type EncodeErrorType } from './backend/encode.ts'
export { createFile, Pointer, pointerTo, PorticoFile, type FileContent } from './backend/values.ts'
export {
  destroyAll,
  destroyObject,
  fetchObject,
  queryObjects,
  saveAll,
  saveObject,
  type ObjectData,
  type ObjectRef,
  type PorticoObject,
  type QueryObjectsParameters,
  type QueryObjectsReturnType,
  type SavedObject,
  type SaveObjectErrorType,
  type SaveObjectReturnType,
} from './backend/objects.ts'
export { saveFile, type SaveFileErrorType } from './backend/files.ts'
