import { useCallback, useMemo, useState } from 'react'

// What a team sets up in the data browser for each class (column widths, hidden columns), kept
// in this browser so the grid looks the same the next time.

export interface GridPrefs {
  /** Column widths in pixels, by field. */
  widths: Record<string, number>
  hidden: string[]
}

// localStorage throws in privacy modes and sandboxed frames, and when full: the grid then
// simply forgets its layout. (The app's safe storage is not imported: sharing it would make the
// first load of every page export it to this chunk.)
export const storage = {
  getItem(key: string): string | null {
    try {
      return globalThis.localStorage.getItem(key)
    } catch {
      return null
    }
  },
  setItem(key: string, value: string): void {
    try {
      globalThis.localStorage.setItem(key, value)
    } catch {
      // Not kept: the layout lasts as long as the page.
    }
  },
}
const keyOf = (className: string) => `portico.console.grid.${className}`
export const MIN_WIDTH = 64
export const MAX_WIDTH = 800

export function readPrefs(className: string): GridPrefs {
  try {
    const saved = JSON.parse(storage.getItem(keyOf(className)) ?? '{}') as Partial<GridPrefs>
    const widths = Object.fromEntries(
      Object.entries(saved.widths ?? {}).filter(
        ([, width]) => typeof width === 'number' && width >= MIN_WIDTH && width <= MAX_WIDTH,
      ),
    )
    const hidden = Array.isArray(saved.hidden)
      ? saved.hidden.filter((x): x is string => typeof x === 'string')
      : []
    return { widths, hidden }
  } catch {
    // Saved by another version, or edited by hand: the defaults are as good.
    return { widths: {}, hidden: [] }
  }
}

/** The prefs of `className`, and setters that save them as they change. */
export function useGridPrefs(className: string) {
  const [state, setState] = useState(() => ({ className, prefs: readPrefs(className) }))
  const prefs = state.className === className ? state.prefs : readPrefs(className)
  const update = useCallback(
    (change: (prefs: GridPrefs) => GridPrefs) =>
      setState((current) => {
        const base = current.className === className ? current.prefs : readPrefs(className)
        const next = change(base)
        storage.setItem(keyOf(className), JSON.stringify(next))
        return { className, prefs: next }
      }),
    [className],
  )
  return useMemo(
    () => ({
      prefs,
      setWidth: (field: string, width: number) =>
        update((p) => ({
          ...p,
          widths: {
            ...p.widths,
            [field]: Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width))),
          },
        })),
      setHidden: (field: string, hidden: boolean) =>
        update((p) => ({
          ...p,
          hidden: hidden ? [...new Set([...p.hidden, field])] : p.hidden.filter((f) => f !== field),
        })),
    }),
    [prefs, update],
  )
}
