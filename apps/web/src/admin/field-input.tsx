import type { KeyboardEvent, RefObject } from 'react'
import type { GridColumn } from './field-types.ts'

/** What every input of a field carries: its name for assistive tech, its problem, its keys. */
export interface FieldInputProps {
  'aria-label': string
  'aria-invalid'?: true | undefined
  'aria-describedby'?: string | undefined
  autoFocus?: boolean
  onKeyDown?: (event: KeyboardEvent) => void
}

/**
 * The input of one value by its field's type, as a cell's editor and the new-row form show it:
 * text, number, true/false, a date picker in local time (its zone named), latitude and
 * longitude as two labelled fields, a file to upload, a Polygon's points one a line, or JSON
 * for arrays and objects. `text` is what `parseEdit` reads; a file is read from `fileRef`.
 */
export function FieldInput({
  column,
  text,
  onText,
  fileRef,
  inputProps,
}: {
  column: GridColumn
  text: string
  onText: (text: string) => void
  fileRef?: RefObject<HTMLInputElement | null> | undefined
  inputProps: FieldInputProps
}) {
  const targetClass = column.targetClass
  switch (column.type) {
    case 'boolean':
      return (
        <select {...inputProps} value={text} onChange={(e) => onText(e.target.value)}>
          <option value="">(not set)</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      )
    case 'date':
      return (
        <>
          <input
            {...inputProps}
            className="date-input"
            type="datetime-local"
            step="1"
            value={text}
            onChange={(e) => onText(e.target.value)}
          />
          <span className="muted hint">{zoneName()} time</span>
        </>
      )
    case 'geopoint': {
      const [lat = '', lng = ''] = text.split(',').map((part) => part.trim())
      const set = (nextLat: string, nextLng: string) => onText(`${nextLat}, ${nextLng}`)
      return (
        <span className="geo-fields">
          <label>
            Latitude
            <input
              {...inputProps}
              aria-label={undefined}
              inputMode="decimal"
              value={lat}
              onChange={(e) => set(e.target.value, lng)}
            />
          </label>
          <label>
            Longitude
            <input
              {...inputProps}
              aria-label={undefined}
              autoFocus={false}
              inputMode="decimal"
              value={lng}
              onChange={(e) => set(lat, e.target.value)}
            />
          </label>
        </span>
      )
    }
    case 'file':
      return <input {...inputProps} ref={fileRef} type="file" onChange={() => onText(text)} />
    case 'array':
    case 'object':
    case 'polygon':
      return (
        <textarea
          {...inputProps}
          className="mono"
          placeholder={
            column.type === 'polygon' ? 'latitude, longitude (one point a line)' : undefined
          }
          rows={4}
          value={text}
          onChange={(e) => onText(e.target.value)}
        />
      )
    default:
      return (
        <input
          {...inputProps}
          inputMode={column.type === 'number' ? 'decimal' : undefined}
          className={column.type === 'bytes' ? 'mono' : undefined}
          placeholder={
            column.type === 'pointer'
              ? `${targetClass ?? ''} object id`
              : column.type === 'bytes'
                ? 'base64'
                : undefined
          }
          value={text}
          onChange={(e) => onText(e.target.value)}
        />
      )
  }
}

/** This browser's time zone, by name (`Europe/Paris`): the date picker's times are in it. */
function zoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'Local'
}
