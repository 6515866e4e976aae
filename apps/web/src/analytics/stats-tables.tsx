import { bucketLabel, formatCount } from './format.ts'
import type { Bucket, EventStats, SeriesPoint } from './stats.ts'

/** The chart's numbers as a table (its text alternative), folded away by default. */
export function SeriesTable({
  points,
  bucket,
  noun = 'Events',
}: {
  points: readonly SeriesPoint[]
  bucket: Bucket
  /** The counted column's heading. */
  noun?: string
}) {
  return (
    <details className="series-table">
      <summary>Show the numbers as a table</summary>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">
            {noun} per {bucket === 'hour' ? 'hour' : 'day (UTC)'}
          </caption>
          <thead>
            <tr>
              <th scope="col">{bucket === 'hour' ? 'Hour' : 'Day (UTC)'}</th>
              <th scope="col" className="numeric">
                {noun}
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.start}>
                <th scope="row">{bucketLabel(point.start, bucket, true)}</th>
                <td className="numeric">{formatCount(point.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  )
}

/** A ranked list of names with counts and a bar showing each one's share of the total. */
export function RankedTable({
  caption,
  heading,
  countHeading = 'Count',
  rows,
  total,
}: {
  caption: string
  heading: string
  countHeading?: string
  rows: readonly { name: string; count: number }[]
  total: number
}) {
  return (
    <table className="ranked-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{heading}</th>
          <th scope="col" className="numeric">
            {countHeading}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}>
            <th scope="row">
              <span className="ranked-name">{row.name}</span>
              <span
                className="ranked-bar"
                aria-hidden="true"
                style={{ width: `${total > 0 ? Math.max(2, (row.count / total) * 100) : 0}%` }}
              />
            </th>
            <td className="numeric">{formatCount(row.count)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** Rows for `RankedTable` from the stats answer. */
export const eventRows = (events: EventStats['events']) =>
  events.map((row) => ({ name: row.event, count: row.count }))
export const subdomainRows = (subdomains: EventStats['subdomains']) =>
  subdomains.map((row) => ({ name: row.subdomain || '(none)', count: row.count }))
