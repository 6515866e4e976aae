// A worker thread that recovers the signer of sign-in messages (auth/signer-recovery.ts sends
// them). Plain JavaScript so that it runs the same from the sources (tests, tsx) and from dist/.
import { parentPort } from 'node:worker_threads'
import { recoverMessageAddress } from 'viem'

parentPort?.on('message', async ({ id, message, signature }) => {
  try {
    parentPort?.postMessage({ id, address: await recoverMessageAddress({ message, signature }) })
  } catch {
    // Not a plain 65-byte signature (a contract wallet's, or garbage): the caller checks it itself.
    parentPort?.postMessage({ id })
  }
})
