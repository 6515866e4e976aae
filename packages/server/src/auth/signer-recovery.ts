import os from 'node:os'
import { Worker } from 'node:worker_threads'

// Recovering the signer of a sign-in message (keccak and secp256k1 in JavaScript) takes about
// 3 ms of CPU, several times everything else a sign-in does. On the server's one thread it caps
// sign-ins at one core and stalls every other request meanwhile; in worker threads it uses the
// other cores and leaves the event loop to HTTP and the database. The workers are shared by the
// process (the work is a pure function), started on first use and never keep the process alive.

interface Pending {
  resolve: (address: string | undefined) => void
}

interface RecoveryWorker {
  worker: Worker
  pending: Map<number, Pending>
}

const size = Math.max(1, Math.min(4, os.availableParallelism() - 1))
const workers: RecoveryWorker[] = []
let nextId = 0
let unavailable = false

// From the sources the worker sits beside this file; in the bundle, beside dist/cli.js.
const workerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './recover-worker.mjs' : './recover-worker.js',
  import.meta.url,
)

function start(): RecoveryWorker | undefined {
  let worker: Worker
  try {
    worker = new Worker(workerUrl, { execArgv: [] })
  } catch {
    unavailable = true
    return undefined
  }
  worker.unref()
  const entry: RecoveryWorker = { worker, pending: new Map() }
  worker.on('message', ({ id, address }: { id: number; address?: string }) => {
    entry.pending.get(id)?.resolve(address)
    entry.pending.delete(id)
  })
  // A worker that dies answers nothing it still had (its callers check on the main thread) and
  // is replaced on the next call.
  const forget = () => {
    for (const pending of entry.pending.values()) pending.resolve(undefined)
    entry.pending.clear()
    const index = workers.indexOf(entry)
    if (index >= 0) workers.splice(index, 1)
  }
  worker.on('error', forget)
  worker.on('exit', forget)
  return entry
}

/** The worker with the least work queued, starting one while the pool is not full. */
function pick(): RecoveryWorker | undefined {
  if (unavailable) return undefined
  let best = workers[0]
  for (const entry of workers) if (entry.pending.size < best!.pending.size) best = entry
  if ((!best || best.pending.size > 0) && workers.length < size) {
    const started = start()
    if (started) workers.push(started)
    return started ?? best
  }
  return best
}

/**
 * The address that signed `message` as an EIP-191 personal message, recovered off the event
 * loop; undefined when the signature is not a plain one (the caller then checks it itself).
 */
export function recoverSigner(message: string, signature: string): Promise<string | undefined> {
  const entry = pick()
  if (!entry) return Promise.resolve(undefined)
  const id = nextId++
  return new Promise((resolve) => {
    entry.pending.set(id, { resolve })
    entry.worker.ref() // kept alive while it owes an answer
    entry.worker.postMessage({ id, message, signature })
  }).finally(() => {
    if (entry.pending.size === 0) entry.worker.unref()
  }) as Promise<string | undefined>
}
