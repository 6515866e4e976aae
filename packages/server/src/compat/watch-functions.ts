import { chainPrefix } from '../addresses/classes.ts'
import { AddressRefusal } from '../addresses/service.ts'
import { WatchRefusal, type WatchParams } from '../sync/watch-params.ts'
import type { CompatCall } from './call.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// Moralis v1's built-in cloud functions that watch the chain: `watchContractEvent` and
// `unwatchContractEvent` make and remove a contract-event sync (sync/watches.ts), with the
// master key only, as v1 required. `watchEthAddress` and the like add an address to the
// address index (addresses/service.ts) on every indexed chain of that prefix (`chainId` picks
// one), from the start block with `sync_historical`, else from the head; `unwatch…` removes it.

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

/** The indexed chains a v1 prefix names (`chainId` in the params picks one of them). */
function chainsOf(call: CompatCall, name: string, prefix: string): number[] {
  const indexed = call.services.addressIndex.chainIds.filter((id) => chainPrefix(id) === prefix)
  const asked = (call.params as { chainId?: unknown }).chainId
  const picked =
    asked === undefined
      ? indexed
      : indexed.filter((id) => id === Number(asked) || `0x${id.toString(16)}` === asked)
  if (picked.length === 0)
    throw new ParseError(
      ParseCode.SCRIPT_FAILED,
      `${name}: no indexed chain is a ${prefix} chain${asked === undefined ? '' : ` with id ${String(asked).slice(0, 20)}`}: list it in ADDRESS_INDEX_CHAINS.`,
    )
  return picked
}

const addressWatch =
  (name: string, prefix: string, watch: boolean): Builtin =>
  async (call) => {
    requireMaster(call, name)
    const params = call.params as { address?: unknown; sync_historical?: unknown }
    try {
      for (const chainId of chainsOf(call, name, prefix))
        if (watch)
          await call.services.addressIndex.watch(
            chainId,
            String(params.address ?? ''),
            params.sync_historical === true,
          )
        else await call.services.addressIndex.unwatch(chainId, String(params.address ?? ''))
    } catch (error) {
      if (error instanceof AddressRefusal)
        throw new ParseError(ParseCode.SCRIPT_FAILED, `${name}: ${error.message}`)
      throw error
    }
    return { success: true }
  }

const addressWatches = Object.fromEntries(
  ['Eth', 'Bsc', 'Polygon', 'Avax', 'Ftm'].flatMap((prefix) => [
    [`watch${prefix}Address`, addressWatch(`watch${prefix}Address`, prefix, true)],
    [`unwatch${prefix}Address`, addressWatch(`unwatch${prefix}Address`, prefix, false)],
  ]),
)

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
  ...addressWatches,
}
