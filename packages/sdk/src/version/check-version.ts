import type { BackendClient } from '../backend/client.ts'
import { SdkVersionUnsupportedError } from '../errors/version.ts'
import { sdkVersion } from '../sdk-version.ts'

export interface ServerVersion {
  /** The server's own version. */
  server: string
  sdk: { latest: string; minimum: string }
}

/** `GET /api/version`: the server's version and the latest and minimum SDK versions. */
export function getVersion(client: BackendClient): Promise<ServerVersion> {
  return client.request<ServerVersion>('GET', '/api/version')
}

/** Compares `1.5.9`-style versions: negative when `a` is older than `b`. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((part) => Number.parseInt(part, 10) || 0)
  const pb = b.split('.').map((part) => Number.parseInt(part, 10) || 0)
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0)
    if (diff !== 0) return diff
  }
  return 0
}

export interface CheckVersionParameters {
  /** The version to check; this SDK's own by default. */
  version?: string | undefined
  /** Where the "newer version available" notice goes; `console.warn` by default. */
  warn?: ((message: string) => void) | undefined
}

export type CheckVersionReturnType = ServerVersion & {
  status: 'current' | 'outdated'
}

const warned = new WeakSet<BackendClient>()

/**
 * Checks this SDK against the server: below the minimum → throws `SdkVersionUnsupportedError`;
 * older than the latest → warns once per client (console) and resolves with `status: 'outdated'`.
 *
 * @example
 * const { status } = await checkVersion(client)
 */
export async function checkVersion(
  client: BackendClient,
  parameters: CheckVersionParameters = {},
): Promise<CheckVersionReturnType> {
  const version = parameters.version ?? sdkVersion
  const answer = await getVersion(client)
  if (compareVersions(version, answer.sdk.minimum) < 0) {
    throw new SdkVersionUnsupportedError({ version, minimum: answer.sdk.minimum })
  }
  if (compareVersions(version, answer.sdk.latest) < 0) {
    if (!warned.has(client)) {
      warned.add(client)
      const warn = parameters.warn ?? ((message: string) => console.warn(message))
      warn(
        `@portico/sdk ${version} is older than the latest version ${answer.sdk.latest}: consider updating.`,
      )
    }
    return { ...answer, status: 'outdated' }
  }
  return { ...answer, status: 'current' }
}
