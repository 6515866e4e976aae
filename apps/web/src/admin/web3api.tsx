import type { ConsoleAnswer } from '@portico/sdk/wire'
import type { SectionProps } from './section.ts'
import { ConsoleTable } from './console-table.tsx'
import { dateTime } from './use-admin.ts'
import { useConsole } from './console-api.ts'

const seconds = (n: number) => (n < 1 ? `${Math.round(n * 1000)} ms` : `${n.toFixed(2)} s`)

/**
 * Moralis v1's Web3 API as this server process answered it: per function, how often, how many
 * failed and how long they took; and whether the address index its wallet-wide functions read is
 * configured.
 */
export function Web3Api({ client }: SectionProps) {
  const { state, reload } = useConsole(client, 'GET /api/admin/web3api')
  const data = state.status === 'ready' ? state.data : undefined
  return (
    <section aria-labelledby="web3api-heading">
      <h2 id="web3api-heading">Web3 API</h2>
      <p className="muted">
        The <code>Moralis.Web3API</code> functions this server process answered
        {data ? ` since ${dateTime(data.since)}` : ''}, from the site&apos;s own nodes.{' '}
        <button type="button" className="button-secondary" onClick={reload}>
          Refresh
        </button>
      </p>
      {data ? <IndexLine data={data} /> : null}
      <ConsoleTable
        state={state}
        rows={(answer) => answer.results}
        rowKey={(row) => row.name}
        caption="Web3 API functions answered, the most called first"
        empty="No Web3 API function was called since this process started: calls from the app (Moralis.Web3API.*, react-moralis' data hooks) and from cloud code appear here."
        columns={[
          { header: 'Function', rowHeader: true, className: 'mono', cell: (row) => row.name },
          { header: 'Calls', numeric: true, cell: (row) => row.calls },
          { header: 'Errors', numeric: true, cell: (row) => row.errors },
          {
            header: 'Average',
            numeric: true,
            title: (row) => `Longest: ${seconds(row.maxSeconds)}`,
            cell: (row) => seconds(row.averageSeconds),
          },
          { header: 'Total', numeric: true, cell: (row) => seconds(row.totalSeconds) },
        ]}
      />
    </section>
  )
}

/** Whether the wallet-wide functions have the address index to read, and if not what to set. */
function IndexLine({ data }: { data: ConsoleAnswer<'GET /api/admin/web3api'> }) {
  const functions = data.addressEndpoints.join(', ')
  return data.addressIndex ? (
    <p>
      The address index is configured on chain{data.addressIndex.chainIds.length > 1 ? 's' : ''}{' '}
      {data.addressIndex.chainIds.join(', ')}: {functions} read it (progress in Syncs).
    </p>
  ) : (
    <p className="card">
      The address index is not configured: {functions} refuse every call until{' '}
      <code>ADDRESS_INDEX_CHAINS</code> lists the chains to index.
    </p>
  )
}
