import { WatchRefusal, type WatchParams } from '../sync/watch-params.ts'
import type { CompatCall } from './call.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// Moralis v1's built-in cloud functions that watch the chain: `watchContractEvent` and
// `unwatchContractEvent` make and remove a contract-event sync (sync/watches.ts), with the
// master key only, as v1 required. v1's address watches need an indexer of every transaction
// and transfer of an address, which a plain node does not offer: they are refused by name.

type Builtin = (call: CompatCall) => Promise<unknown>

function requireMaster(call: CompatCall, name: string): void {
  if (!call.master)
    throw new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      `${name} needs the master key: call it with { useMasterKey: true } from a script that has MASTER_KEY.`,
    )
}

async function refusing(name: string, run: () => Promise<void>): Promise<{ success: true }> {
  try {
    await run()
  } catch (error) {
    if (error instanceof WatchRefusal)
      throw new ParseError(ParseCode.SCRIPT_FAILED, `${name}: ${error.message}`)
    throw error
  }
  return { success: true }
}

const addressWatch =
  (name: string): Builtin =>
  async () => {
    throw new ParseError(
      ParseCode.SCRIPT_FAILED,
      `${name} is not supported on Portico: watching every transaction and transfer of an address needs an indexer. Watch the contracts' events with watchContractEvent, or read an address's history through the RPC gateway.`,
    )
  }

/** The built-ins of the mount's `functions/:name` that watch the chain. */
export const watchFunctions: Record<string, Builtin> = {
  watchContractEvent: async (call) => {
    requireMaster(call, 'watchContractEvent')
    return refusing('watchContractEvent', () =>
      call.services.watches.watch(call.params as WatchParams),
    )
  },
  unwatchContractEvent: async (call) => {
    requireMaster(call, 'unwatchContractEvent')
    return refusing('unwatchContractEvent', () => call.services.watches.unwatch(call.params))
  },
  watchEthAddress: addressWatch('watchEthAddress'),
  watchBscAddress: addressWatch('watchBscAddress'),
  watchPolygonAddress: addressWatch('watchPolygonAddress'),
  watchAvaxAddress: addressWatch('watchAvaxAddress'),
}
