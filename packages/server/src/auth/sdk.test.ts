import type { FastifyInstance } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { createBackendClient } from '@portico/sdk/backend'
import {
  getNonce,
  createSignInMessage,
  verifySignIn,
  getSession,
  listSessions,
  revokeSession,
  signOut,
} from '@portico/sdk/auth'
import { trackEvent } from '@portico/sdk/events'
import {
  checkVersion,
  getVersion,
  getApiDescription,
  supportsOperation,
} from '@portico/sdk/version'
import { BackendError, SdkVersionUnsupportedError } from '@portico/sdk/errors'
import { databaseKinds, signedIn, testApp, testConfig } from '../../test/helpers.ts'
import { newAccount } from '../../test/siwe.ts'
import { events } from '../db/schema.ts'

// The SDK's auth, events, version and API-description calls against the real server
// listening on 127.0.0.1 (bearer mode: Node's fetch keeps no cookies).

describe.each(databaseKinds())(
  'SDK sign-in, events and version against the server on %s',
  (kind) => {
    let app: FastifyInstance
    let serverUrl: string
    const admin = newAccount()
    beforeAll(async () => {
      ;({ app } = await testApp(kind, {
        app: { ...testConfig().app, adminAddresses: [admin.address], sdkMinimum: '1.2.0' },
      }))
      serverUrl = await app.listen({ host: '127.0.0.1', port: 0 })
    })
    const client = () => createBackendClient({ serverUrl, appId: 'portico', retryDelay: 1 })

    it('signs in with a local key, uses and lists the session, revokes another, signs out', async () => {
      const sdk = client()
      const account = newAccount()
      const signInOnce = async (c = sdk) => {
        const nonce = await getNonce(c)
        expect(nonce.appId).toBe('portico')
        const message = createSignInMessage({ nonce, address: account.address, chainId: 31337 })
        const signature = await account.signMessage({ message })
        return verifySignIn(c, { message, signature, mode: 'bearer' })
      }
      expect(await getSession(sdk)).toBeNull()
      const result = await signInOnce()
      expect(result.user.address).toBe(account.address)
      const session = await getSession(sdk)
      expect(session?.user.address).toBe(account.address)
      expect(session?.session.chainId).toBe(31337)

      const other = client()
      await signInOnce(other)
      const sessions = await listSessions(sdk)
      expect(sessions).toHaveLength(2)
      const otherId = sessions.find((s) => !s.current)!.id
      await revokeSession(sdk, otherId)
      expect(await getSession(other)).toBeNull()

      await signOut(sdk)
      expect(await getSession(sdk)).toBeNull()
    })

    it('reports a refused sign-in as a BackendError with the server code', async () => {
      const sdk = client()
      const account = newAccount()
      const nonce = await getNonce(sdk)
      const message = createSignInMessage({ nonce, address: account.address, chainId: 31337 })
      const signature = await newAccount().signMessage({ message })
      const error = await verifySignIn(sdk, { message, signature }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(BackendError)
      expect((error as BackendError).code).toBe('signature_invalid')
      expect((error as BackendError).status).toBe(401)
    })

    it('tracks events and never throws, even when refused or offline', async () => {
      const sdk = client()
      expect(
        await trackEvent(sdk, { event: 'sdk_test', options: { n: 1 }, subdomain: 'sdk.example' }),
      ).toBe(true)
      expect(await trackEvent(sdk, { event: '' })).toBe(false)
      expect(await trackEvent(sdk, { event: 'x', options: { big: 'x'.repeat(10_000) } })).toBe(
        false,
      )
      const offline = createBackendClient({
        serverUrl: 'http://127.0.0.1:9',
        appId: 'portico',
        attempts: 1,
      })
      expect(await trackEvent(offline, { event: 'lost' })).toBe(false)
      const rows = await app.services.database.db.select().from(events)
      expect(rows.map((r) => [r.subdomain, r.event])).toEqual([['sdk.example', 'sdk_test']])
      // An admin sees it in the statistics.
      const { headers } = await signedIn(app, admin.address)
      const stats = await app.inject({ url: '/api/events/stats', headers })
      expect(stats.json().events).toEqual([{ event: 'sdk_test', count: 1 }])
    })

    it('gets the version, warns once when outdated and fails clearly below the minimum', async () => {
      const sdk = client()
      expect(await getVersion(sdk)).toEqual({
        server: '0.1.0',
        sdk: { latest: '1.5.9', minimum: '1.2.0' },
      })
      expect((await checkVersion(sdk)).status).toBe('current')
      const warnings: string[] = []
      const warn = (message: string) => warnings.push(message)
      expect((await checkVersion(sdk, { version: '1.4.0', warn })).status).toBe('outdated')
      await checkVersion(sdk, { version: '1.4.0', warn })
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain('1.5.9')
      const error = await checkVersion(sdk, { version: '1.1.9', warn }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(SdkVersionUnsupportedError)
      expect((error as SdkVersionUnsupportedError).shortMessage).toContain('1.1.9')
    })

    it('fetches the API description', async () => {
      const doc = await getApiDescription(client())
      expect(doc.openapi).toBe('3.1.0')
      expect(supportsOperation(doc, 'POST', '/api/auth/verify')).toBe(true)
      expect(supportsOperation(doc, 'DELETE', '/api/auth/sessions/{id}')).toBe(true)
      expect(supportsOperation(doc, 'PATCH', '/api/events')).toBe(false)
    })
  },
)
