import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { and, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds, startSession, testApp } from '../../test/helpers.ts'
import { importCommand } from '../commands/import.ts'
import { objects, users } from '../db/schema.ts'
import { exportRows } from './export-file.ts'
import { IMPORT_OWNER, importClass } from './parse-import.ts'

// The fixture is an export made by a real Parse Server (make-export.mjs beside it).
const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/fixtures/parse-export',
)
const read = (name: string) => fs.readFileSync(path.join(fixture, name), 'utf8')
type ParseRow = {
  objectId: string
  title?: string
  createdAt: string
  updatedAt: string
  ethAddress?: string
}
const noteRows = (JSON.parse(read('Note.json')) as { results: ParseRow[] }).results
const userRows = (JSON.parse(read('_User.json')) as { results: ParseRow[] }).results
const byTitle = (title: string) => noteRows.find((row) => row.title === title)!

describe.each(databaseKinds())('importing a Parse export on %s', (kind) => {
  let app: FastifyInstance
  beforeAll(async () => {
    ;({ app } = await testApp(kind))
  })
  const object = async (className: string, id: string) =>
    (
      await app.services.db
        .select()
        .from(objects)
        .where(and(eq(objects.className, className), eq(objects.id, id)))
    )[0]

  it('brings users, objects, ACLs, pointers and dates over, and refuses a role ACL by row', async () => {
    const userReport = await importClass(app.services.db, app.services.objects, {
      className: '_User',
      rows: exportRows(read('_User.json')),
    })
    expect(userReport).toMatchObject({ imported: 2, unchanged: 0, refused: [] })
    const progress: number[] = []
    const report = await importClass(app.services.db, app.services.objects, {
      className: 'Note',
      rows: exportRows(read('Note.json')),
      onProgress: (p) => progress.push(p.done),
    })
    expect(progress).toEqual([6])
    expect(report.imported).toBe(5)
    expect(report.refused).toHaveLength(1)
    expect(report.refused[0]).toMatchObject({ objectId: byTitle('For moderators').objectId })
    expect(report.refused[0]!.reason).toMatch(/role "Moderators".*not imported/)
    // The line the refused row starts on in the file.
    const lines = read('Note.json').split('\n')
    expect(lines[report.refused[0]!.line - 1]!.trim()).toBe('{')
    expect(lines[report.refused[0]!.line]).toContain(byTitle('For moderators').objectId)
    expect(report.files).toEqual([
      expect.objectContaining({
        field: 'picture',
        url: expect.stringContaining('abc123_picture.png'),
      }),
    ])

    // Users keyed by address, with the ids Parse gave them.
    const [alice] = await app.services.db
      .select()
      .from(users)
      .where(eq(users.id, userRows[0]!.objectId))
    expect(alice!.address.toLowerCase()).toBe(userRows[0]!.ethAddress)
    const userObject = await object('_User', alice!.id)
    expect(userObject).toMatchObject({ ownerId: alice!.id, publicRead: true })
    expect(userObject!.data).not.toHaveProperty('password')

    const ownerOnly = await object('Note', byTitle('Owner only').objectId)
    expect(ownerOnly).toMatchObject({ ownerId: alice!.id, publicRead: false })
    expect(ownerOnly!.createdAt.toISOString()).toBe(byTitle('Owner only').createdAt)
    const shared = await object('Note', byTitle('Owner and everyone reads').objectId)
    expect(shared).toMatchObject({ ownerId: alice!.id, publicRead: true })
    expect(shared!.data).toMatchObject({
      score: 42,
      tags: ['a', 'b'],
      when: { __type: 'Date', iso: '2024-05-01T10:00:00.000Z' },
      author: { __type: 'Pointer', className: '_User', objectId: alice!.id },
      previous: { __type: 'Pointer', className: 'Note', objectId: byTitle('Owner only').objectId },
    })
    expect(shared!.updatedAt.toISOString()).toBe(byTitle('Owner and everyone reads').updatedAt)
    // No ACL in Parse means everyone reads and writes: Portico keeps the reading, narrows writing.
    expect(await object('Note', byTitle('No ACL at all').objectId)).toMatchObject({
      ownerId: IMPORT_OWNER.id,
      publicRead: true,
    })
    expect(await object('Note', byTitle('For moderators').objectId)).toBeUndefined()
  })

  it('changes nothing when run again', async () => {
    const before = await app.services.db
      .select()
      .from(objects)
      .orderBy(objects.className, objects.id)
    for (const [className, file] of [
      ['_User', '_User.json'],
      ['Note', 'Note.json'],
    ] as const) {
      const again = await importClass(app.services.db, app.services.objects, {
        className,
        rows: exportRows(read(file)),
      })
      expect(again.imported).toBe(0)
    }
    expect(
      await app.services.db.select().from(objects).orderBy(objects.className, objects.id),
    ).toEqual(before)
  })

  it('serves imported objects unchanged through the Moralis v1 / Parse mount', async () => {
    const shared = byTitle('Owner and everyone reads')
    const anonymous = await app.inject({
      method: 'POST',
      url: '/server/classes/Note',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ _ApplicationId: 'portico', _method: 'GET', where: {} }),
    })
    const titles = (anonymous.json().results as ParseRow[]).map((row) => row.title).sort()
    expect(titles).toEqual(['No ACL at all', 'Owner and everyone reads', 'With a picture'])
    const served = (anonymous.json().results as ParseRow[]).find(
      (r) => r.objectId === shared.objectId,
    )
    expect(served).toMatchObject({ createdAt: shared.createdAt, updatedAt: shared.updatedAt })

    // Alice, signing in with her wallet, is the imported user and reads her private note.
    const { token } = await startSession(app.services.db, { address: userRows[0]!.ethAddress! })
    const hers = await app.inject({
      method: 'POST',
      url: '/server/classes/Note',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({
        _ApplicationId: 'portico',
        _method: 'GET',
        _SessionToken: `r:${token}`,
        where: { objectId: byTitle('Owner only').objectId },
      }),
    })
    expect(hers.json().results).toHaveLength(1)
  })

  it('reports a malformed row by its line and imports the rest', async () => {
    const text = read('Note.json').replace(
      '"title": "No ACL at all"',
      '"title": "No ACL at all", "broken": ,',
    )
    const rows = exportRows(text)
    const report = await importClass(app.services.db, app.services.objects, {
      className: 'Fresh',
      rows,
    })
    const brokenLine = text.split('\n').findIndex((l) => l.includes('"broken"')) + 1
    expect(report.refused.map((r) => r.reason)).toEqual([
      expect.stringMatching(/not valid JSON/),
      expect.stringMatching(/role/),
    ])
    expect(report.refused[0]!.line).toBeLessThan(brokenLine)
    expect(brokenLine - report.refused[0]!.line).toBeLessThan(6)
    expect(report.imported).toBe(4)
  })
})

describe('portico import parse', () => {
  it('imports a folder into the embedded database, _User first, and says what it did', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-import-'))
    const lines: string[] = []
    const reports = await importCommand(['parse', fixture], {
      env: { DATA_DIR: dataDir },
      print: (line) => lines.push(line),
    })
    expect(reports.map((r) => r.className)).toEqual(['_User', 'Note'])
    expect(lines).toContain('_User: 2 imported, 0 already there, 0 refused')
    expect(lines).toContain('Note: 5 imported, 0 already there, 1 refused')
    expect(lines.some((l) => /^ {2}line \d+ \(\w+\): its ACL grants the role/.test(l))).toBe(true)
    expect(lines.some((l) => /file "picture" is at .*, not fetched/.test(l))).toBe(true)
    expect(lines).toContain('Note: 6 of 6 rows read')
    const again: string[] = []
    await importCommand(['parse', fixture], {
      env: { DATA_DIR: dataDir },
      print: (line) => again.push(line),
    })
    expect(again).toContain('Note: 0 imported, 5 already there, 1 refused')
    await expect(importCommand(['mongo', fixture], { env: { DATA_DIR: dataDir } })).rejects.toThrow(
      /Usage/,
    )
  })
})
