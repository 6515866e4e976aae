import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds } from '../../test/helpers.ts'
import { parseTarget, type ListeningApp, type ParseSdk } from '../../test/compat.ts'

// Cases of the Parse SDK's own integration suite where Parse Server answers as these tests say,
// through the real `parse` client: a master-key script uploading a file, one GeoPoint field per
// class, and client-given object ids (`allowCustomObjectId`).

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-parse-suite-cases'

/** A REST call to the mount (the SDK checks some of these itself before sending). */
async function rest(server: ListeningApp, path: string, body: unknown) {
  const answer = await fetch(`${server.serverUrl}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-parse-application-id': 'portico' },
    body: JSON.stringify(body),
  })
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> }
}

describe.each(databaseKinds())('Parse SDK suite cases on %s', (kind) => {
  describe('by default', () => {
    let server: ListeningApp
    beforeAll(async () => {
      server = await parseTarget(kind, Parse, MASTER)
    })
    afterAll(() => server.close())

    it('stores a file a master-key script saves, signed out', async () => {
      const file = await new Parse.File('report.txt', [104, 105], 'text/plain').save({
        useMasterKey: true,
      })
      const served = await fetch(file.url())
      expect(served.status).toBe(200)
      expect(await served.text()).toBe('hi')
      const [entry] = await server.app.services.audit.list({ limit: 1 })
      expect(entry).toMatchObject({ action: 'file.upload', target: `file/${file.name()}` })
      expect(entry!.actor).toMatch(/^master key/)
      // Without the master key, a sign-in is still needed.
      await expect(new Parse.File('other.txt', [104], 'text/plain').save()).rejects.toMatchObject({
        code: 209,
      })
    })

    it('holds a class to one GeoPoint field, with Parse’s errors', async () => {
      const point = new Parse.GeoPoint(20, 20)
      const two = new Parse.Object('Container', { locationOne: point, locationTwo: point })
      await expect(two.save()).rejects.toMatchObject({
        code: 111,
        message: 'there can only be one geopoint field in a class',
      })
      const one = await new Parse.Object('Container', { locationOne: point }).save()
      one.set('locationTwo', point)
      one.set('locationOne', new Parse.GeoPoint(1, 1))
      await expect(one.save()).rejects.toMatchObject({ code: 111 })
      const schema = new Parse.Schema('Container')
      schema.addGeoPoint('newGeo')
      await expect(schema.update()).rejects.toMatchObject({
        code: 111,
        message:
          'currently, only one GeoPoint field may exist in an object. Adding newGeo when locationOne already exists.',
      })
      const fresh = new Parse.Schema('Places')
      fresh.addGeoPoint('newGeo1').addGeoPoint('newGeo2')
      await expect(fresh.save()).rejects.toMatchObject({
        code: 111,
        message:
          'currently, only one GeoPoint field may exist in an object. Adding newGeo2 when newGeo1 already exists.',
      })
    })

    it('refuses a client-given objectId or id, as Parse does without allowCustomObjectId', async () => {
      expect(await rest(server, 'classes/Thing', { objectId: 'mine', n: 1 })).toMatchObject({
        status: 400,
        body: { code: 105, error: 'objectId is an invalid field name.' },
      })
      expect(await rest(server, 'classes/Thing', { id: 'mine', n: 1 })).toMatchObject({
        body: { code: 105, error: 'id is an invalid field name.' },
      })
    })
  })

  describe('with COMPAT_ALLOW_CUSTOM_OBJECT_ID', () => {
    let server: ListeningApp
    beforeAll(async () => {
      server = await parseTarget(kind, Parse, MASTER, { allowCustomObjectId: true })
      Parse.CoreManager.set('ALLOW_CUSTOM_OBJECT_ID', true)
    })
    afterAll(async () => {
      Parse.CoreManager.set('ALLOW_CUSTOM_OBJECT_ID', false)
      await server.close()
    })

    it('creates with the given id, refuses it taken (137) and empty (104)', async () => {
      const thing = new Parse.Object('Thing', { n: 1 })
      thing.id = 'custom-1'
      await thing.save()
      const found = await new Parse.Query('Thing').get('custom-1')
      expect(found.get('n')).toBe(1)
      // Saved again, it is an update of the same object.
      thing.set('n', 2)
      await thing.save()
      expect((await new Parse.Query('Thing').get('custom-1')).get('n')).toBe(2)
      const again = new Parse.Object('Thing', { n: 3 })
      again.id = 'custom-1'
      await expect(again.save()).rejects.toMatchObject({ code: 137 })
      expect((await new Parse.Query('Thing').get('custom-1')).get('n')).toBe(2)
      expect(await rest(server, 'classes/Thing', { objectId: '', n: 1 })).toMatchObject({
        body: { code: 104, error: 'objectId must not be empty, null or undefined' },
      })
      expect(await rest(server, 'classes/Thing', { objectId: 'a/b', n: 1 })).toMatchObject({
        body: { code: 105 },
      })
      // Without one, the server makes it.
      const made = await rest(server, 'classes/Thing', { n: 4 })
      expect(made.status).toBe(201)
      expect(typeof made.body.objectId).toBe('string')
    })
  })
})
