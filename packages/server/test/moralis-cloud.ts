import type { AbiEvent } from 'viem'
import { startAnvil, type Anvil } from '@portico/test-kit/anvil'
import { emitterAbi } from '@portico/test-kit/emitter'
import { loadConfig } from '../src/config/server.ts'
import type { DatabaseKind } from '../src/db/client.ts'
import { listeningApp, type ListeningApp } from './compat.ts'
import { rpcTestConfig } from './rpc.ts'
import { deployEmitter } from './sync.ts'

// A Moralis v1 app's setting for tests: anvil with the event emitter deployed, a server with the
// app's cloud folder and a master key, and the real moralis-v1 client started against it.

/** The emitter's Transfer event, as a v1 app passes it to `watchContractEvent`. */
export const transferEvent = emitterAbi.find(
  (item) => item.type === 'event' && item.name === 'Transfer',
) as AbiEvent

export interface MoralisCloud {
  anvil: Anvil
  emitter: Awaited<ReturnType<typeof deployEmitter>>
  server: ListeningApp
  stop(): Promise<void>
}

export async function startMoralisCloud(
  kind: DatabaseKind,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
  Moralis: any,
  input: { cloudCode: string; masterKey: string },
): Promise<MoralisCloud> {
  const anvil = await startAnvil()
  const emitter = await deployEmitter(anvil.url)
  const server = await listeningApp(kind, {
    rpc: rpcTestConfig({ 31337: [anvil.url] }),
    cloudCode: input.cloudCode,
    compat: { ...loadConfig({}).compat, masterKey: input.masterKey },
  })
  server.app.services.start()
  Moralis.User.enableUnsafeCurrentUser()
  await Moralis.start({ serverUrl: server.serverUrl, appId: 'portico', masterKey: input.masterKey })
  return {
    anvil,
    emitter,
    server,
    async stop() {
      await server.close()
      await anvil.stop()
    },
  }
}

/** Registers the emitter's Transfer events as table `Transfers`, with the master key. */
export function watchTransfers(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the v1 SDK ships loose types
  Moralis: any,
  address: string,
): Promise<unknown> {
  return Moralis.Cloud.run(
    'watchContractEvent',
    {
      chainId: '0x7a69',
      address: address.toLowerCase(),
      topic: 'Transfer(address, address, uint256)',
      abi: transferEvent,
      tableName: 'Transfers',
      sync_historical: true,
    },
    { useMasterKey: true },
  )
}
