import type { FastifyBaseLogger } from 'fastify'
import type { Web3ApiConfig } from '../config/web3api.ts'
import { fetchUri, type FetchLimits } from './fetch-uri.ts'

// NFT metadata as v1 gave it: the JSON document at the token URI, as a JSON string, with the
// time it was read (`synced_at`). Read in the background (a call answers with what is known
// and `metadata: null` until then), a few at a time, and kept per process for the token and
// URI; `reSyncMetadata` reads it again.

interface Entry {
  metadata: string | null
  syncedAt: string | null
  /** The read under way, if any. */
  pending: Promise<void> | undefined
  error: string | undefined
}

/** Most tokens whose metadata is kept; the oldest are forgotten first. */
const KEPT = 20_000
/** Reads under way at once; the others wait. */
const AT_ONCE = 4
/** Reads waiting at most; a token asked beyond that is read when asked again. */
const WAITING = 2_000

export interface KnownMetadata {
  metadata: string | null
  synced_at: string | null
}

export class NftMetadata {
  readonly #entries = new Map<string, Entry>()
  readonly #limits: FetchLimits
  readonly #queue: (() => Promise<void>)[] = []
  #running = 0

  constructor(
    config: Web3ApiConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    this.#limits = {
      ipfsGateway: config.ipfsGateway,
      privateHosts: config.metadataPrivateHosts,
      maxBytes: config.metadataMaxBytes,
      timeoutMs: config.metadataTimeoutMs,
    }
  }

  /** What is known of the metadata at `uri`; starts reading it when nothing is. */
  known(key: string, uri: string | null): KnownMetadata {
    if (!uri) return { metadata: null, synced_at: null }
    const entry = this.#entry(`${key}|${uri}`, uri, false)
    return { metadata: entry.metadata, synced_at: entry.syncedAt }
  }

  /** Reads the metadata at `uri` again; resolves once read (or failed). */
  async resync(key: string, uri: string): Promise<KnownMetadata & { error?: string }> {
    const entry = this.#entry(`${key}|${uri}`, uri, true)
    await entry.pending
    return {
      metadata: entry.metadata,
      synced_at: entry.syncedAt,
      ...(entry.error ? { error: entry.error } : {}),
    }
  }

  /** Resolves when the read of `uri` under way (if any) ends. */
  async settled(key: string, uri: string): Promise<void> {
    await this.#entries.get(`${key}|${uri}`)?.pending
  }

  #entry(id: string, uri: string, again: boolean): Entry {
    let entry = this.#entries.get(id)
    if (entry && !again) return entry
    if (!entry) {
      entry = { metadata: null, syncedAt: null, pending: undefined, error: undefined }
      this.#entries.set(id, entry)
      if (this.#entries.size > KEPT) this.#entries.delete(this.#entries.keys().next().value!)
    }
    if (entry.pending) return entry
    if (this.#queue.length >= WAITING) {
      // Forgotten, so that the next call asks again.
      this.#entries.delete(id)
      return entry
    }
    const target = entry
    target.pending = new Promise<void>((resolve) => {
      this.#queue.push(async () => {
        try {
          target.metadata = await this.#read(uri)
          target.error = undefined
        } catch (error) {
          target.error = error instanceof Error ? error.message : String(error)
          this.log.debug({ uri: uri.slice(0, 200), reason: target.error }, 'NFT metadata not read')
        } finally {
          target.syncedAt = new Date().toISOString()
          target.pending = undefined
          resolve()
        }
      })
      this.#next()
    })
    return entry
  }

  #next(): void {
    while (this.#running < AT_ONCE && this.#queue.length) {
      const job = this.#queue.shift()!
      this.#running++
      void job().finally(() => {
        this.#running--
        this.#next()
      })
    }
  }

  /** The document at `uri`, checked to be JSON, as compact JSON text. */
  async #read(uri: string): Promise<string> {
    const text = await fetchUri(uri, this.#limits)
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new Error('the token URI holds no JSON')
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('the token URI holds no JSON object')
    return JSON.stringify(parsed)
  }
}
