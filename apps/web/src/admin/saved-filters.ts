import { storage } from './grid-prefs.ts'

// Filters a team names and keeps per class, in this browser (as the Parse Dashboard keeps
// them): a `where` written once and used again from a list.

export interface SavedFilter {
  name: string
  /** The filter as `where` JSON text. */
  where: string
}

const keyOf = (className: string) => `portico.console.filters.${className}`

export function readSavedFilters(className: string): SavedFilter[] {
  try {
    const saved = JSON.parse(storage.getItem(keyOf(className)) ?? '[]') as unknown
    return Array.isArray(saved)
      ? saved.filter(
          (entry): entry is SavedFilter =>
            typeof entry === 'object' &&
            entry !== null &&
            typeof (entry as SavedFilter).name === 'string' &&
            typeof (entry as SavedFilter).where === 'string',
        )
      : []
  } catch {
    // Saved by another version, or edited by hand: start again.
    return []
  }
}

/** Keeps `filter` under its name (one of the same name is replaced); the list, sorted by name. */
export function saveFilter(className: string, filter: SavedFilter): SavedFilter[] {
  const next = [...readSavedFilters(className).filter((f) => f.name !== filter.name), filter].sort(
    (a, b) => a.name.localeCompare(b.name),
  )
  storage.setItem(keyOf(className), JSON.stringify(next))
  return next
}

export function forgetFilter(className: string, name: string): SavedFilter[] {
  const next = readSavedFilters(className).filter((f) => f.name !== name)
  storage.setItem(keyOf(className), JSON.stringify(next))
  return next
}
