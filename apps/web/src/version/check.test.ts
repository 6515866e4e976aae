import { createBackendClient } from '@portico/sdk/backend/client'
import { sdkVersion } from '@portico/sdk/version'
import { describe, expect, it } from 'vitest'
import { checkForNotice } from './check.ts'

/** A real SDK client whose server says which SDK releases exist. */
function serverWith(sdk: { latest: string; minimum: string } | 'down') {
  return createBackendClient({
    serverUrl: 'http://app.test',
    appId: 'test',
    attempts: 1,
    fetch: async (url) => {
      expect(new URL(url).pathname).toBe('/api/version')
      if (sdk === 'down') return new Response('', { status: 503 })
      return Response.json({ server: '0.1.0', sdk })
    },
  })
}

describe('checkForNotice', () => {
  it('is silent when this SDK is the latest', async () => {
    const client = serverWith({ latest: sdkVersion, minimum: '1.0.0' })
    expect(await checkForNotice(client, null)).toBeNull()
  })

  it('shows an outdated notice until that release is dismissed', async () => {
    const client = serverWith({ latest: '99.0.0', minimum: '1.0.0' })
    expect(await checkForNotice(client, null)).toEqual({
      kind: 'outdated',
      current: sdkVersion,
      latest: '99.0.0',
    })
    expect(await checkForNotice(client, '99.0.0')).toBeNull()
    // A dismissal of an older release does not hide the next one.
    expect((await checkForNotice(client, '98.0.0'))?.latest).toBe('99.0.0')
  })

  it('always shows when this SDK is below the minimum', async () => {
    const client = serverWith({ latest: '99.1.0', minimum: '99.0.0' })
    expect((await checkForNotice(client, '99.1.0'))?.kind).toBe('unsupported')
  })

  it('fails when the server cannot say', async () => {
    await expect(checkForNotice(serverWith('down'), null)).rejects.toMatchObject({
      name: 'BackendError',
    })
  })
})
