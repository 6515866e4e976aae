// Entry point `@portico/sdk/rpc`: blockchain node connection with failover, and hex conversions.
export {
  connectNode,
  type ChainIdInput,
  type ConnectNodeParameters,
  type NodeClient,
} from './connect-node.ts'
export { nodeDefaults } from './defaults.ts'
export { fromDecimalToHex, fromHexToBigInt, fromHexToDecimal } from '../convert.ts'
export {
  ChainUrlMissingError,
  ErrorResponseError,
  isNodeTransportError,
  NoResponseError,
  NodeConfigMissingError,
  UnexpectedRpcResponseError,
  type NodeTransportError,
} from '../errors/rpc.ts'
export { InvalidConversionInputError, InvalidNumberError } from '../errors/convert.ts'
