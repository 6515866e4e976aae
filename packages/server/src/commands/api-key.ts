import { parseArgs } from 'node:util'
import { openConfiguredDatabase } from './database.ts'
import { UsageError } from './database.ts'
import { createApiKey, listApiKeys, revokeApiKey } from '../rpc/api-keys.ts'

const usage = `Usage:
  portico api-key create --label <who uses it>   prints the new key once
  portico api-key list                           ids, labels, dates (never the keys)
  portico api-key revoke <id>`

/**
 * `portico api-key …`: manages the RPC gateway's API keys. Only each key's SHA-256 is stored,
 * so `create` is the one chance to copy the key.
 */
export async function apiKeyCommand(
  argv: string[],
  {
    env = process.env,
    print = console.log,
  }: { env?: Record<string, string | undefined>; print?: (line: string) => void } = {},
): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { label: { type: 'string' } },
  })
  const [action, id] = positionals
  if (action !== 'create' && action !== 'list' && action !== 'revoke') throw new UsageError(usage)
  if (action === 'create' && !values.label?.trim())
    throw new UsageError(`--label is required.\n${usage}`)
  if (action === 'revoke' && !id) throw new UsageError(`Which key? Give its id.\n${usage}`)

  const database = await openConfiguredDatabase(env)
  try {
    if (action === 'create') {
      const created = await createApiKey(database.db, values.label!)
      print(`Created API key ${created.id} (${created.label}). Copy it now, it is not shown again:`)
      print(created.key)
    } else if (action === 'list') {
      for (const key of await listApiKeys(database.db)) {
        const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active'
        print(`${key.id}\t${key.label}\tcreated ${key.createdAt.toISOString()}\t${state}`)
      }
    } else {
      const revoked = await revokeApiKey(database.db, id!)
      if (!revoked) throw new UsageError(`No active API key with id ${id}.`)
      print(`Revoked ${id}. Servers stop accepting it within 30 seconds.`)
    }
  } finally {
    await database.close()
  }
}
