import { useState } from 'react'
import type { BackendClient } from '@portico/sdk/backend'
import {
  ADDRESS_INDEX_PAGE,
  type ConsoleAddressIndexChain as Chain,
  type ConsoleIndexedAddress as Indexed,
} from '@portico/sdk/wire'
import { ConsoleTable } from './console-table.tsx'
import { change, dateTime, shortAddress } from './use-admin.ts'
import { consoleCall, useConsole } from './console-api.ts'

/** What a chain follower (a contract sync, the address index) is doing, as the console says it. */
export const SYNC_MODES = {
  starting: 'Starting',
  backfill: 'Backfilling',
  following: 'Following the head',
}

const SOURCES: Record<Indexed['source'], string> = {
  user: 'A user’s wallet',
  watch: 'Watched',
  asked: 'Asked about',
  every: 'Every address',
}

/**
 * The address index (what each wallet holds and did, behind Moralis v1's address-sync classes):
 * each chain's progress, and one chain's indexed addresses, a page at a time.
 */
export function AddressIndex({ client }: { client: BackendClient }) {
  const [chainId, setChainId] = useState<string>()
  const { state, reload } = useConsole(client, 'GET /api/admin/address-index', {
    query: { chainId },
  })
  // The pages after the first, read with `after`; the first page reloading starts them over.
  const [more, setMore] = useState<{ rows: Indexed[]; full: boolean }>()
  const [message, setMessage] = useState<string>()
  const [reading, setReading] = useState(false)
  const first = state.status === 'ready' ? state.data : undefined
  const chains = first?.chains ?? []
  const shownChain = chainId ?? (chains[0] ? String(chains[0].chainId) : undefined)
  const rows = [...(first?.addresses ?? []), ...(more?.rows ?? [])]
  const full = more ? more.full : first?.addresses.length === ADDRESS_INDEX_PAGE
  const startOver = () => {
    setMore(undefined)
    setMessage(undefined)
  }
  const readMore = async () => {
    const after = rows.at(-1)?.address
    let page: Indexed[] = []
    setReading(true)
    const failed = await change(async () => {
      page = (
        await consoleCall(client, 'GET /api/admin/address-index', {
          query: { chainId: shownChain, after },
        })
      ).addresses
    })
    setReading(false)
    setMessage(failed)
    if (failed) return
    setMore({ rows: [...(more?.rows ?? []), ...page], full: page.length === ADDRESS_INDEX_PAGE })
  }

  return (
    <section aria-labelledby="address-index-heading">
      <h3 id="address-index-heading">Address index</h3>
      <p className="muted">
        What each wallet holds and did, read from the chain for Moralis v1&apos;s address-sync
        classes and its wallet-wide Web3 API functions.{' '}
        <button
          type="button"
          className="button-secondary"
          onClick={() => {
            startOver()
            reload()
          }}
        >
          Refresh
        </button>
      </p>
      <ConsoleTable
        state={state}
        rows={(data) => data.chains}
        rowKey={(chain) => chain.chainId}
        caption="Address index by chain"
        empty="No address is indexed: set ADDRESS_INDEX_CHAINS to the chains whose wallets to index (each with its RPC_URL_<chainId>) and restart the server."
        columns={[
          { header: 'Chain', rowHeader: true, numeric: true, cell: (chain) => chain.chainId },
          { header: 'State', cell: stateOf },
          {
            header: 'Writer',
            cell: (chain) => (chain.writer ? 'this process' : 'another process'),
          },
          { header: 'Head', numeric: true, cell: (chain) => chain.head ?? '—' },
          { header: 'Addresses', numeric: true, cell: (chain) => chain.addresses },
          { header: 'Syncing', numeric: true, cell: (chain) => chain.syncing },
          { header: 'Rows', numeric: true, cell: (chain) => chain.rows },
          { header: 'Last error', cell: (chain) => chain.lastError ?? 'None' },
        ]}
      />
      {chains.length > 1 ? (
        <p className="console-toolbar">
          <label>
            Addresses of chain{' '}
            <select
              value={shownChain}
              onChange={(event) => {
                startOver()
                setChainId(event.target.value)
              }}
            >
              {chains.map((chain) => (
                <option key={chain.chainId} value={String(chain.chainId)}>
                  {chain.chainId}
                </option>
              ))}
            </select>
          </label>
        </p>
      ) : null}
      {chains.length ? (
        <ConsoleTable
          state={state}
          alert={false}
          rows={() => rows}
          rowKey={(row) => row.address}
          caption={`Indexed addresses on chain ${shownChain}`}
          empty="No address is indexed on this chain yet: a user's wallet is added when they sign in, an address watched with watchEthAddress (and its siblings) or asked about by a Web3 API call when that happens."
          columns={[
            {
              header: 'Address',
              rowHeader: true,
              className: 'address',
              // The whole address, to select and copy.
              title: (row) => row.address,
              cell: (row) => (row.address === '*' ? 'Every address' : shortAddress(row.address)),
            },
            { header: 'Source', cell: (row) => SOURCES[row.source] },
            { header: 'Next block', numeric: true, cell: (row) => row.nextBlock },
            { header: 'Status', cell: (row) => (row.status === 'SYNCED' ? 'Synced' : 'Syncing') },
            { header: 'Added', cell: (row) => dateTime(row.createdAt) },
          ]}
        />
      ) : null}
      {message ? <p role="alert">{message}</p> : null}
      {full ? (
        <p className="console-toolbar">
          <button type="button" className="button-secondary" disabled={reading} onClick={readMore}>
            More
          </button>
        </p>
      ) : null}
    </section>
  )
}

function stateOf(chain: Chain) {
  return chain.writer ? SYNC_MODES[chain.mode] : 'Written by another process'
}
