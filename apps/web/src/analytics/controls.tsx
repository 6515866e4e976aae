import { useId } from 'react'
import { statsRanges, type StatsRange } from './stats.ts'

/** Time-range picker: a radio group (arrow keys move between ranges). */
export function RangePicker({
  value,
  onChange,
}: {
  value: StatsRange
  onChange: (range: StatsRange) => void
}) {
  const name = useId()
  return (
    <fieldset className="segmented">
      <legend>Time range</legend>
      {statsRanges.map((range) => (
        <label key={range.value} className="segmented-option">
          <input
            type="radio"
            name={name}
            value={range.value}
            checked={value === range.value}
            onChange={() => onChange(range.value)}
          />
          <span>{range.label}</span>
        </label>
      ))}
    </fieldset>
  )
}

/** Subdomain filter: every subdomain seen so far, or all of them. */
export function SubdomainFilter({
  value,
  options,
  onChange,
}: {
  value: string
  options: readonly string[]
  onChange: (subdomain: string) => void
}) {
  const id = useId()
  return (
    <div className="field field-inline">
      <label htmlFor={id}>Subdomain</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">All subdomains</option>
        {options.map((subdomain) => (
          <option key={subdomain} value={subdomain}>
            {subdomain}
          </option>
        ))}
      </select>
    </div>
  )
}
