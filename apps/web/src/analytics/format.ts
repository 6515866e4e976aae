import type { Bucket, SeriesPoint } from './stats.ts'

// Labels of the dashboard. Days are UTC days (that is how the server buckets them), so they
// are labelled in UTC; hours are labelled in the reader's own time.

const hourFormat = new Intl.DateTimeFormat('en', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})
const hourLongFormat = new Intl.DateTimeFormat('en', {
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})
const dayFormat = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', timeZone: 'UTC' })
const numberFormat = new Intl.NumberFormat('en')

/** Short label of a bucket for an axis or a table row. */
export function bucketLabel(start: number, bucket: Bucket, long = false): string {
  if (bucket === 'day') return dayFormat.format(start)
  return (long ? hourLongFormat : hourFormat).format(start)
}

export function formatCount(count: number): string {
  return numberFormat.format(count)
}

/** One sentence describing the series, the chart's text alternative. */
export function describeSeries(
  points: readonly SeriesPoint[],
  bucket: Bucket,
  noun = 'events',
): string {
  const unit = bucket === 'hour' ? 'hour' : 'day'
  const units = points.length === 1 ? unit : `${unit}s`
  const total = points.reduce((sum, point) => sum + point.count, 0)
  if (total === 0) return `No ${noun} in the ${points.length} ${units} shown.`
  let peak = points[0]!
  for (const point of points) if (point.count > peak.count) peak = point
  return (
    `${formatCount(total)} ${total === 1 ? noun.replace(/s$/, '') : noun} over ${points.length} ${units}; ` +
    `the busiest ${unit} was ${bucketLabel(peak.start, bucket, true)} with ${formatCount(peak.count)}.`
  )
}
