// Debian's Chromium, as every browser test and benchmark launches it: never a
// downloaded browser. Shared by e2e/playwright.config.ts and bench/.
import fs from 'node:fs'

/** The Chromium binary; `CHROMIUM_PATH` overrides the Debian location. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/** Launch flags for a quiet, sandbox-less Chromium that contacts no outside host by itself. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** Throws a message that says how to install Chromium when it is missing. */
export function assertChromium() {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium was not found at ${CHROMIUM_PATH}. Install it with: apt-get install -y chromium ` +
        '(or point CHROMIUM_PATH at a Chromium binary). Browsers are never downloaded.',
    )
  }
}
