import { loadRpcConfig, type RpcGatewayConfig } from '../src/config/rpc.ts'

/** Gateway settings for tests: the defaults, the given upstreams, then any overrides. */
export function rpcTestConfig(
  upstreams: Record<number, string[]>,
  overrides: Partial<RpcGatewayConfig> = {},
): RpcGatewayConfig {
  return {
    ...loadRpcConfig({}, []),
    upstreams: new Map(Object.entries(upstreams).map(([id, urls]) => [Number(id), urls])),
    timeoutMs: 2_000,
    ...overrides,
  }
}
