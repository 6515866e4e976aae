import { createPublicClient, custom, type PublicClient } from 'viem'
import type { JsonRpcAnswer } from '../rpc/answer.ts'
import { RpcGateway } from '../rpc/gateway.ts'
import type { RpcGatewayConfig } from '../config/rpc.ts'

// The Web3 API reads the chains through an RPC gateway of its own over the gateway's upstreams:
// the same method list, answer checks, cache of final answers and failover, and the nodes' URLs
// (which often hold a provider's key) never leave the server.

/** A node's JSON-RPC error, as viem expects a transport to throw it. */
class NodeAnswerError extends Error {
  override name = 'NodeAnswerError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

export class ChainNodes {
  readonly #gateway: RpcGateway
  readonly #clients = new Map<number, PublicClient>()
  #id = 0

  constructor(config: RpcGatewayConfig) {
    this.#gateway = new RpcGateway({ config })
  }

  serves(chainId: number): boolean {
    return this.#gateway.serves(chainId)
  }

  /** One JSON-RPC call on `chainId`; its result, or a NodeAnswerError. */
  async call(chainId: number, method: string, params: unknown[]): Promise<unknown> {
    const reply = await this.#gateway.handle(chainId, {
      jsonrpc: '2.0',
      id: ++this.#id,
      method,
      params,
    })
    const answer = reply.body as JsonRpcAnswer | undefined
    if (!answer) throw new NodeAnswerError(-32603, 'the node gave no answer')
    if ('error' in answer)
      throw new NodeAnswerError(answer.error.code, answer.error.message, answer.error.data)
    return answer.result
  }

  /** A viem client of `chainId` whose every call goes through the gateway. */
  client(chainId: number): PublicClient {
    let client = this.#clients.get(chainId)
    if (!client) {
      client = createPublicClient({
        // Each call reads the chain as it is now (viem would keep the block number for seconds).
        cacheTime: 0,
        transport: custom(
          { request: ({ method, params }) => this.call(chainId, method, params ?? []) },
          { retryCount: 0 },
        ),
      }) as PublicClient
      this.#clients.set(chainId, client)
    }
    return client
  }

  close(): void {
    this.#gateway.close()
  }
}
