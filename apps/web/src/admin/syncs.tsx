import { useState } from 'react'
import { Link } from 'wouter'
import type { SectionProps } from './section.ts'
import { ConsoleTable } from './console-table.tsx'
import { change, dateTime, shortAddress } from './use-admin.ts'
import { consoleCall, useConsole } from './console-api.ts'
import { AddressIndex, SYNC_MODES as MODES } from './address-index.tsx'
import type { ConsoleSyncRow } from '@portico/sdk/wire'

/** A contract-event sync as `GET /api/admin/syncs` lists it. */
export type SyncRow = ConsoleSyncRow

/**
 * The contract-event syncs, the site's and the watches, with where each stands and the class it
 * fills; an admin can stop a watch (its rows stay in the class). Below them, the address index.
 */
export function Syncs({ client, role }: SectionProps) {
  const { state, reload } = useConsole(client, 'GET /api/admin/syncs')
  const [confirming, setConfirming] = useState<string>()
  const [message, setMessage] = useState<string>()
  const remove = async (tableName: string) => {
    const failed = await change(() =>
      consoleCall(client, 'DELETE /api/admin/watches/:tableName', { params: { tableName } }),
    )
    setConfirming(undefined)
    setMessage(failed ?? `The watch of ${tableName} was stopped; its rows stay.`)
    reload()
  }
  return (
    <section aria-labelledby="syncs-heading">
      <h2 id="syncs-heading">Syncs</h2>
      <p className="muted">
        Contract events written into classes: the site&apos;s syncs (<code>defineSync</code>) and
        the watches apps make with <code>watchContractEvent</code>.{' '}
        <button type="button" className="button-secondary" onClick={reload}>
          Refresh
        </button>
      </p>
      {message ? <p role="status">{message}</p> : null}
      <ConsoleTable
        state={state}
        rows={(data) => data.results}
        rowKey={(sync) => sync.name}
        caption="Contract-event syncs"
        empty="No contract events are synced: declare a sync with defineSync, or call watchContractEvent."
        columns={[
          {
            header: 'Class',
            rowHeader: true,
            cell: (sync) => (
              <Link href={`/admin/objects?class=${encodeURIComponent(sync.className)}`}>
                {sync.className}
              </Link>
            ),
          },
          { header: 'Kind', cell: (sync) => (sync.kind === 'watch' ? 'Watch' : 'Site') },
          {
            header: 'Events',
            cell: (sync) => `${sync.events.join(', ')}${sync.filter ? ' (filtered)' : ''}`,
            title: (sync) => (sync.filter ? JSON.stringify(sync.filter) : sync.events.join(', ')),
          },
          {
            header: 'Contract',
            className: 'address',
            title: (sync) => sync.addresses.join(', '),
            cell: (sync) =>
              sync.addresses.length === 1
                ? shortAddress(sync.addresses[0]!)
                : `${sync.addresses.length} contracts`,
          },
          { header: 'Chain', numeric: true, cell: (sync) => sync.chainId },
          {
            header: 'State',
            cell: (sync) => (sync.mode ? MODES[sync.mode] : 'Written by another process'),
          },
          { header: 'Blocks left', numeric: true, cell: (sync) => sync.blocksLeft ?? '—' },
          {
            header: 'Events/s',
            numeric: true,
            cell: (sync) => (sync.eventsPerSecond === null ? '—' : sync.eventsPerSecond),
          },
          { header: 'Rows', numeric: true, cell: (sync) => sync.rows },
          {
            header: 'Last error',
            cell: (sync) => sync.lastError ?? 'None',
          },
          { header: 'Writer', cell: (sync) => sync.writer },
          { header: 'Updated', cell: (sync) => dateTime(sync.updatedAt) },
          {
            header: 'Actions',
            headerHidden: true,
            cell: (sync) =>
              role !== 'admin' || sync.kind !== 'watch' ? null : confirming === sync.className ? (
                <span role="group" aria-label="Confirm stopping the watch" className="confirm">
                  <button type="button" className="danger" onClick={() => remove(sync.className)}>
                    Yes, stop it
                  </button>
                  <button
                    type="button"
                    className="button-secondary"
                    onClick={() => setConfirming(undefined)}
                  >
                    Keep it
                  </button>
                </span>
              ) : (
                <button
                  type="button"
                  className="button-secondary"
                  aria-label={`Stop the watch of ${sync.className}`}
                  onClick={() => setConfirming(sync.className)}
                >
                  Stop…
                </button>
              ),
          },
        ]}
      />
      <AddressIndex client={client} />
    </section>
  )
}
