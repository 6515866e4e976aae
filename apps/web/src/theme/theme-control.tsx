import { useId } from 'react'
import { THEMES, type Theme } from './theme.ts'
import { useTheme } from './theme-provider.tsx'

const LABELS: Record<Theme, string> = { light: 'Light', dark: 'Dark', system: 'System' }

/**
 * The 3-way theme switch in the header. Native radio buttons in a fieldset give screen readers a
 * named radio group and keyboard users arrow-key selection for free; CSS draws it as a segmented
 * control.
 */
export function ThemeControl() {
  const { theme, setTheme } = useTheme()
  const name = useId()
  return (
    <fieldset className="theme-control">
      <legend className="visually-hidden">Colour theme</legend>
      {THEMES.map((value) => (
        <label key={value} className="theme-option" data-value={value}>
          <input
            type="radio"
            name={name}
            value={value}
            checked={theme === value}
            onChange={() => setTheme(value)}
          />
          <span>{LABELS[value]}</span>
        </label>
      ))}
    </fieldset>
  )
}
