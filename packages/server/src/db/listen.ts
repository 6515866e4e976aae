import pg from 'pg'

// One PostgreSQL connection that LISTENs on a channel for as long as the process runs: news
// from every process on the database. A lost connection is opened again a second later; what
// was sent meanwhile is lost, so `onConnect` runs after every (re)connection for the caller to
// forget whatever it may have missed.

export interface ChannelListener {
  /** Resolves once the first connection is listening (or has failed and will be retried). */
  ready: Promise<void>
  close(): Promise<void>
}

export function listenOn(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
  onConnect?: () => void,
): ChannelListener {
  let client: pg.Client | undefined
  let closed = false
  let retry: NodeJS.Timeout | undefined

  const connect = async () => {
    if (closed) return
    const next = new pg.Client({ connectionString: url })
    next.on('error', () => {})
    next.on('end', () => {
      if (closed || client !== next) return
      client = undefined
      retry = setTimeout(() => void connect(), 1_000)
    })
    next.on('notification', (note) => {
      if (note.channel === channel && note.payload) onPayload(note.payload)
    })
    try {
      await next.connect()
      await next.query(`listen ${channel}`)
      client = next
      onConnect?.()
    } catch {
      await next.end().catch(() => {})
      if (!closed) retry = setTimeout(() => void connect(), 1_000)
    }
  }
  const ready = connect()

  return {
    ready,
    async close() {
      closed = true
      clearTimeout(retry)
      await ready
      await client?.end().catch(() => {})
    },
  }
}
