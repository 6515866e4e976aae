export type Env = Record<string, string | undefined>

/**
 * Reads a whole number above 0 from `env[name]`; unset or empty → `fallback`. A bad value is
 * added to `problems` (the config loaders report every problem at once) and `fallback` returned.
 */
export function positiveInt(env: Env, name: string, fallback: number, problems: string[]): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value <= 0) {
    problems.push(`${name} must be a whole number above 0 (got "${raw}")`)
    return fallback
  }
  return value
}
