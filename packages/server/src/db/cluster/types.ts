import type { Database, DatabaseKind } from '../client.ts'
import type { Leadership } from './lead.ts'
import type { SocketSlots } from './socket-slots.ts'
import type { WindowCounter } from './window-counter.ts'

/** The database as the cluster needs it. */
export interface ClusterDatabase {
  db: Database
  kind: DatabaseKind
  /** PostgreSQL's connection URL (the cluster opens its LISTEN and lock connections on it). */
  url?: string | undefined
  /** Connections that need not wait for the disk (counters, notifications); see db/client.ts. */
  relaxed?: Database | undefined
}

export interface ClusterSettings {
  /**
   * Digests of the settings every process on one database must share, by the variable that
   * sets them: a process is refused when a running one has other values.
   */
  shared: Record<string, string>
  /** Most live-query sockets one client address may hold open, over every process. */
  liveMaxSocketsPerAddress: number
}

/** How a message of a broadcast travels between processes. */
export interface Codec<T> {
  /** Messages as notification payloads, each within PostgreSQL's limit of 8000 bytes. */
  encode(messages: T[]): string[]
  /** A payload's messages again (a rejection is logged and the payload dropped). */
  decode(payload: string): Promise<T[]> | T[]
}

/** News told to every process on the database, this one included. */
export interface Broadcast<T> {
  /** Resolves once this process hears the channel (or failed to, and keeps trying). */
  readonly ready: Promise<void>
  /** Tells every process; rejects when the news could not be sent. */
  publish(messages: T[]): Promise<void>
  /** Hears every message published from now on; returns the function that stops it. */
  listen(listener: (message: T) => void): () => void
}

export interface Cluster {
  /** `memory`: this process alone (the embedded database); `postgres`: processes on one PostgreSQL. */
  readonly kind: 'memory' | 'postgres'
  /** This process's id among the processes on the database (`server_processes`). */
  readonly processId: string
  /** The counters behind every rate limit (`shared` on PostgreSQL). */
  readonly windowCounter: WindowCounter
  /** Live sockets per client address, limited over every process. */
  readonly socketSlots: SocketSlots
  /**
   * The channel `name` (a plain SQL identifier) of news for every process. `onGap` runs whenever
   * news may have been missed (after the LISTEN connection was lost and opened again).
   */
  broadcast<T>(name: string, codec: Codec<T>, onGap?: () => void): Broadcast<T>
  /**
   * Runs `run` in one process at a time per `name`: this one competes until no other process (or
   * other leadership here) holds the name, runs it, and gives the name back when it returns.
   * Should the leader die or lose its connection, another process takes over within seconds.
   */
  lead(name: string, run: (signal: AbortSignal) => Promise<void>): Leadership
  /** Stops every leadership, leaves the processes on the database and closes its connections. */
  close(): Promise<void>
}
