import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './server.ts'
import { parseDuration } from './app.ts'

describe('app configuration', () => {
  it('has local defaults that need no environment', () => {
    const { app } = loadConfig({ PORT: '4100' })
    expect(app.publicOrigins).toEqual(['http://127.0.0.1:4100', 'http://localhost:4100'])
    expect(app.allowedChainIds).toEqual([1, 31337])
    expect(app.appId).toBe('portico')
    expect(app.adminAddresses).toEqual([])
    expect(app.sessionTtlMs).toBe(7 * 86_400_000)
    expect(app.sdkLatest).toBe('1.5.9')
  })

  it('reads and normalises the environment', () => {
    const { app } = loadConfig({
      APP_ID: 'my-app',
      PUBLIC_ORIGINS: 'https://Example.org, https://www.example.org:443/',
      ALLOWED_CHAIN_IDS: '10,8453',
      ADMIN_ADDRESSES: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      SESSION_TTL: '12h',
    })
    expect(app.appId).toBe('my-app')
    expect(app.publicOrigins).toEqual(['https://example.org', 'https://www.example.org'])
    expect(app.allowedChainIds).toEqual([10, 8453])
    expect(app.adminAddresses).toEqual(['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'])
    expect(app.sessionTtlMs).toBe(12 * 3_600_000)
  })

  it('lists every problem at once', () => {
    let error: unknown
    try {
      loadConfig({
        APP_ID: 'bad id!',
        PUBLIC_ORIGINS: 'example.org,https://ok.example/path',
        ALLOWED_CHAIN_IDS: '1,abc',
        ADMIN_ADDRESSES: '0x123',
        SESSION_TTL: 'forever',
        EVENTS_RATE_LIMIT: '-1',
        SIGNED_OUT_WRITE_RATE_LIMIT: '0',
        SDK_MINIMUM_VERSION: 'one',
      })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    const problems = (error as ConfigError).problems.join('\n')
    for (const name of [
      'APP_ID',
      'example.org',
      'ok.example/path',
      'abc',
      '0x123',
      'SESSION_TTL',
      'EVENTS_RATE_LIMIT',
      'SIGNED_OUT_WRITE_RATE_LIMIT',
      'SDK_MINIMUM_VERSION',
    ]) {
      expect(problems).toContain(name)
    }
  })

  it('parses durations', () => {
    expect(parseDuration('90')).toBe(90_000)
    expect(parseDuration('1500ms')).toBe(1500)
    expect(parseDuration('10m')).toBe(600_000)
    expect(parseDuration('7d')).toBe(604_800_000)
    expect(parseDuration('1w')).toBeUndefined()
  })
})
