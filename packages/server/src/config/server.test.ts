import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './server.ts'

describe('loadConfig', () => {
  it('has local defaults', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({ host: '127.0.0.1', port: 3000, databaseUrl: undefined })
    expect(config.dataDir).toBe(path.resolve('data'))
  })

  it('lists every problem at once', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).problems).toEqual([
        'PORT must be a whole number from 0 to 65535 (got "eighty")',
        'DATABASE_URL must start with postgres:// or postgresql://',
      ])
    }
  })

  it('reads the connection time-outs and refuses headers allowed longer than the request', () => {
    const env = { REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '3000', IDLE_TIMEOUT_MS: '7000' }
    expect(loadConfig(env).timeouts).toEqual({ requestMs: 5_000, headersMs: 3_000, idleMs: 7_000 })
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000' })).toThrow(
      /HEADERS_TIMEOUT_MS cannot be longer than REQUEST_TIMEOUT_MS/,
    )
  })
})
