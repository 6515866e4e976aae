export { freePort } from '@portico/test-kit/ports'

/** Where the e2e anvil chain listens (chosen by playwright.config.ts). */
export function anvilUrl(): string {
  return `http://127.0.0.1:${process.env.PORTICO_E2E_ANVIL_PORT}`
}
