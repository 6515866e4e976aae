import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { and, count, eq, sql } from 'drizzle-orm'
import { keccak256, toBytes } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listeningApp, type ListeningApp } from '../../test/compat.ts'
import { databaseKinds, testApp } from '../../test/helpers.ts'
import { objectRelations, objects, userAddresses, users } from '../db/schema.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { openDatabase, type Database } from '../db/client.ts'
import { importCommand } from '../commands/import.ts'
import { ImportFileError } from './export-file.ts'
import { importFile, importOrder, IMPORT_OWNER, type ImportReport } from './parse-import.ts'

// The fixtures are exports of a wallet app made by the real software: a Parse Server 9 on
// PostgreSQL, exported by Parse Dashboard 9's own "Export all rows" (JSON) in a browser, plus the
// legacy {results} copy with its _Join relation files, and a folder of malformed files
// (scripts/fixtures/parse-dashboard-export.mjs, malformed-export.mjs).
const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures')
const dashboard = path.join(fixtures, 'parse-dashboard')
const legacy = path.join(fixtures, 'parse-dashboard-legacy')
const malformed = path.join(fixtures, 'parse-dashboard-malformed')

type Row = Record<string, unknown> & { objectId: string; ACL?: Record<string, unknown> }
const rowsOf = (folder: string, name: string): Row[] => {
  const parsed = JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8')) as
    Row[] | { results: Row[] }
  return Array.isArray(parsed) ? parsed : parsed.results
}
const usersByName = new Map(rowsOf(dashboard, '_User.json').map((u) => [u.username as string, u]))
const idOf = (name: string) => usersByName.get(name)!.objectId
/** The wallet the fixture's user `n` signed in with (the generator derives the same key). */
const walletOf = (n: number) =>
  privateKeyToAccount(keccak256(toBytes(`parse-dashboard fixture user ${n}`)))

/** Imports a folder as the command does, file by file in its order, into a running server. */
async function importFolder(db: Database, store: ObjectStore, folder: string) {
  const reports: ImportReport[] = []
  const failed: { name: string; error: ImportFileError }[] = []
  for (const name of importOrder(fs.readdirSync(folder).filter((n) => n.endsWith('.json')))) {
    try {
      reports.push(
        await importFile(db, store, {
          name,
          text: fs.readFileSync(path.join(folder, name), 'utf8'),
        }),
      )
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error
      failed.push({ name, error })
    }
  }
  return { reports, failed, byFile: new Map(reports.map((r) => [r.file, r])) }
}

const require = createRequire(import.meta.url)
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose SDK types
const Parse = require('parse/node') as any

describe.each(databaseKinds())('a Parse Dashboard export on %s', (kind) => {
  let server: ListeningApp
  let db: Database
  const stored = async (className: string, id: string) =>
    (
      await db
        .select()
        .from(objects)
        .where(and(eq(objects.className, className), eq(objects.id, id)))
    ).map((row) => ({ ...row, data: row.data as Record<string, unknown> }))[0]!

  beforeAll(async () => {
    server = await listeningApp(kind)
    db = server.app.services.database.db
    Parse.initialize('portico')
    Parse.serverURL = server.serverUrl
    Parse.User.enableUnsafeCurrentUser()
  })
  afterAll(async () => {
    await Parse.User.logOut().catch(() => {})
    await server.close()
  })

  it('imports every row of every class, with users and their wallets', async () => {
    const { reports, failed } = await importFolder(db, server.app.services.objects, dashboard)
    expect(failed).toEqual([])
    for (const report of reports) {
      const rows = rowsOf(dashboard, report.file)
      expect(report, report.file).toMatchObject({
        format: 'dashboard',
        rows: rows.length,
        imported: rows.length,
        refused: [],
      })
      const [stored] = await db
        .select({ n: count() })
        .from(objects)
        .where(eq(objects.className, report.className))
      expect(stored!.n, report.className).toBe(rows.length)
    }
    expect(reports.map((r) => r.className)).toEqual([
      '_User',
      '_Role',
      'Comment',
      'Note',
      'Place',
      'Post',
      'Token',
      'Transfer',
      'Wallet',
    ])
    // Every wallet of every user signs in as that user: 20 users, 24 wallets.
    const accounts = rowsOf(dashboard, '_User.json').flatMap((u) =>
      (u.accounts as string[]).map((a) => [a, u.objectId]),
    )
    expect(accounts).toHaveLength(24)
    const linked = await db.select().from(userAddresses)
    expect(new Map(linked.map((l) => [l.address.toLowerCase(), l.userId]))).toEqual(
      new Map(accounts as [string, string][]),
    )
    const [ethAddresses] = await db
      .select({ n: count() })
      .from(objects)
      .where(eq(objects.className, '_EthAddress'))
    expect(ethAddresses!.n).toBe(24)
    // No secrets: auth data is not a field.
    const alice = await stored('_User', idOf('alice'))
    expect(alice.data).not.toHaveProperty('authData')
    expect(alice.data).toMatchObject({ username: 'alice', ethAddress: expect.any(String) })
  })

  it('stores embedded pointers as Pointers, Relations as markers, and every type', async () => {
    const posts = rowsOf(dashboard, 'Post.json')
    const withQuote = posts.find((p) => (p.metadata as { quoted?: unknown } | undefined)?.quoted)!
    const post = await stored('Post', withQuote.objectId)
    const author = withQuote.author as { objectId: string; __type: string }
    expect(author.__type).toBe('Object') // embedded in the file
    expect(post.data).toMatchObject({
      author: { __type: 'Pointer', className: '_User', objectId: author.objectId },
      likes: { __type: 'Relation', className: '_User' },
      location: { __type: 'GeoPoint', latitude: expect.any(Number) },
      publishedAt: { __type: 'Date', iso: expect.stringMatching(/^2023-/) },
      metadata: {
        quoted: { __type: 'Pointer', className: 'Post', objectId: expect.any(String) },
        depth: { level: 2, seen: [1, 2] },
      },
    })
    expect(JSON.stringify(post.data)).not.toContain('"__type":"Object"')
    const mentions = (post.data.mentions as { __type: string }[]).map((m) => m.__type)
    expect(mentions.length).toBeGreaterThan(0)
    expect(new Set(mentions)).toEqual(new Set(['Pointer']))
    const repost = posts.find((p) => p.repostOf)!
    expect((await stored('Post', repost.objectId)).data.repostOf).toEqual({
      __type: 'Pointer',
      className: 'Post',
      objectId: (repost.repostOf as { objectId: string }).objectId,
    })

    const transfer = rowsOf(dashboard, 'Transfer.json').find(
      (t) => t.amount === 123456789012345680000,
    )!
    expect((await stored('Transfer', transfer.objectId)).data).toMatchObject({
      raw: { __type: 'Bytes', base64: (transfer.raw as { base64: string }).base64 },
      amount: 123456789012345680000,
      amountText: '123456789012345678901',
      blockTime: { __type: 'Date', iso: '2022-10-07T13:40:10.000Z' },
    })
    const place = rowsOf(dashboard, 'Place.json')[0]!
    const area = (await stored('Place', place.objectId)).data.area as { coordinates: number[][] }
    expect(area.coordinates).toEqual((place.area as { coordinates: number[][] }).coordinates)
    const token = rowsOf(dashboard, 'Token.json').find((t) => t.logo)!
    expect((await stored('Token', token.objectId)).data).toMatchObject({
      logo: { __type: 'File', name: expect.stringMatching(/_logo\.png$/) },
      metadata: { chain: { id: 1 } },
    })
    const pepe = rowsOf(dashboard, 'Token.json').find((t) => t.symbol === 'PEPE')!
    expect((await stored('Token', pepe.objectId)).data.totalSupply).toBe(4.2069e32)
  })

  it("keeps ACLs as they are, users mapped, Parse's rule for a row without one", async () => {
    const notes = new Map(rowsOf(dashboard, 'Note.json').map((n) => [n.title as string, n]))
    const perms = async (title: string) => {
      const row = await stored('Note', notes.get(title)!.objectId)
      return {
        read: [...row.readPerm].sort(),
        write: [...row.writePerm].sort(),
        owner: row.ownerId,
      }
    }
    expect(await perms('note 0')).toEqual({
      read: [idOf('alice'), idOf('bob'), idOf('carol')].sort(),
      write: [idOf('alice')],
      owner: idOf('alice'),
    })
    expect(await perms('note 2')).toEqual({ read: ['*'], write: ['*'], owner: IMPORT_OWNER.id })
    expect(await perms('note 3')).toEqual({ read: [], write: [], owner: IMPORT_OWNER.id })
    expect(notes.get('note 4')).not.toHaveProperty('ACL')
    expect(await perms('note 4')).toEqual({ read: ['*'], write: ['*'], owner: IMPORT_OWNER.id })
    expect(await perms('note 5')).toEqual({
      read: ['role:Moderators'],
      write: ['role:Moderators'],
      owner: IMPORT_OWNER.id,
    })
    expect(await perms('note 6')).toEqual({
      read: ['*'],
      write: [idOf('bob')],
      owner: idOf('bob'),
    })
  })

  async function logInAs(account: PrivateKeyAccount) {
    const { dateTime } = (await Parse.Cloud.run('getServerTime')) as { dateTime: string }
    const data = `Sign in to the wallet app\n\nId: portico:${dateTime}`
    const authData = {
      id: account.address.toLowerCase(),
      signature: await account.signMessage({ message: data }),
      data,
    }
    return (await Parse.User.logInWith('moralisEth', { authData })) as { id: string }
  }
  const note = (title: string) =>
    rowsOf(dashboard, 'Note.json').find((n) => n.title === title)!.objectId
  const canRead = async (className: string, id: string) =>
    new Parse.Query(className).get(id).then(
      () => true,
      (error: { code: number }) => {
        if (error.code !== 101) throw error
        return false
      },
    )

  it('signs its users in as themselves, with any of their wallets', async () => {
    expect((await logInAs(walletOf(0))).id).toBe(idOf('alice'))
    // Alice's second wallet (Moralis' `link`) is Alice too.
    const second = privateKeyToAccount(keccak256(toBytes('parse-dashboard fixture user 101')))
    expect((await logInAs(second)).id).toBe(idOf('alice'))
    expect((await logInAs(walletOf(3))).id).toBe(idOf('user3'))
  })

  it('lets the users an ACL names read, and no one else', async () => {
    await logInAs(walletOf(0))
    expect(await canRead('Note', note('note 0'))).toBe(true)
    await logInAs(walletOf(3))
    expect(await canRead('Note', note('note 0'))).toBe(false)
    expect(await canRead('Note', note('note 3'))).toBe(false) // {}: the master key only
    expect(await canRead('Note', note('note 4'))).toBe(true) // no ACL: everyone
  })

  it('opens an object to every user of a multi-user ACL', async () => {
    await logInAs(walletOf(1)) // bob: named with read in note 0
    expect(await canRead('Note', note('note 0'))).toBe(true)
    await logInAs(walletOf(2)) // carol: named too
    expect(await canRead('Note', note('note 0'))).toBe(true)
  })

  it('opens role ACLs to role members once the members are imported from _Join files', async () => {
    const place = rowsOf(dashboard, 'Place.json').find((p) => p.name === 'Area 3')!.objectId
    // A Dashboard export carries no role members: Holders (users 5 to 11) have none yet.
    await logInAs(walletOf(5))
    expect(await canRead('Place', place)).toBe(false)
    // The same server's legacy export has them (same ids): its _Join files add them.
    for (const name of ['_Join:users:_Role.json', '_Join:roles:_Role.json']) {
      const report = await importFile(db, server.app.services.objects, {
        name,
        text: fs.readFileSync(path.join(legacy, name), 'utf8'),
      })
      expect(report.refused).toEqual([])
    }
    await logInAs(walletOf(5))
    expect(await canRead('Place', place)).toBe(true)
    await logInAs(walletOf(12))
    expect(await canRead('Place', place)).toBe(false)
    // Moderators (carol, and the Admins alice and bob through the role's roles) read note 5.
    await logInAs(walletOf(2))
    expect(await canRead('Note', note('note 5'))).toBe(true)
    await logInAs(walletOf(0))
    expect(await canRead('Note', note('note 5'))).toBe(true)
    await logInAs(walletOf(3))
    expect(await canRead('Note', note('note 5'))).toBe(false)
  })

  it('changes nothing when run again', async () => {
    const before = await db.select().from(objects).orderBy(objects.className, objects.id)
    const { reports } = await importFolder(db, server.app.services.objects, dashboard)
    expect(reports.every((r) => r.imported === 0 && r.refused.length === 0)).toBe(true)
    const after = await db.select().from(objects).orderBy(objects.className, objects.id)
    expect(after).toHaveLength(before.length)
  })
})

describe.each(databaseKinds())('the legacy {results} export with _Join files on %s', (kind) => {
  let app: Awaited<ReturnType<typeof testApp>>
  beforeAll(async () => {
    app = await testApp(kind)
  })
  afterAll(() => app.close())

  it('imports the classes and the relation members, roles included', async () => {
    const db = app.app.services.database.db
    const { reports, failed, byFile } = await importFolder(db, app.app.services.objects, legacy)
    expect(failed).toEqual([])
    for (const report of reports)
      expect(report, report.file).toMatchObject({
        format: 'legacy',
        imported: rowsOf(legacy, report.file).length,
        refused: [],
      })
    const roleIds = new Map(rowsOf(legacy, '_Role.json').map((r) => [r.name as string, r.objectId]))
    const members = async (className: string, field: string) =>
      (
        await db
          .select()
          .from(objectRelations)
          .where(and(eq(objectRelations.className, className), eq(objectRelations.field, field)))
      ).map((m) => [m.owningId, m.relatedId])
    expect(await members('_Role', 'roles')).toEqual([
      [roleIds.get('Moderators'), roleIds.get('Admins')],
    ])
    const admins = (await members('_Role', 'users'))
      .filter(([owning]) => owning === roleIds.get('Admins'))
      .map(([, user]) => user)
      .sort()
    expect(admins).toEqual([idOf('alice'), idOf('bob')].sort())
    expect(await members('Post', 'likes')).toHaveLength(
      rowsOf(legacy, '_Join:likes:Post.json').length,
    )
    expect(byFile.get('_Join:likes:Post.json')!.imported).toBe(60)
    // The password hash and legacy session token of Parse.com's user export are not imported.
    const first = rowsOf(legacy, '_User.json')[0]!
    expect(first).toHaveProperty('bcryptPassword')
    const [user] = await db
      .select()
      .from(objects)
      .where(and(eq(objects.className, '_User'), eq(objects.id, first.objectId)))
    expect(user!.data).not.toHaveProperty('bcryptPassword')
    expect(user!.data).not.toHaveProperty('sessionToken')
  })
})

describe.each(databaseKinds())('a malformed export on %s', (kind) => {
  let app: Awaited<ReturnType<typeof testApp>>
  beforeAll(async () => {
    app = await testApp(kind)
  })
  afterAll(() => app.close())

  const lineOf = (file: string, text: string) =>
    fs
      .readFileSync(path.join(malformed, file), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(text)) + 1
  /** The line the row holding `text` starts on: the `{` above it at the row's indentation. */
  const rowStart = (file: string, text: string) => {
    const lines = fs.readFileSync(path.join(malformed, file), 'utf8').split('\n')
    let at = lineOf(file, text) - 1
    while (lines[at] !== '  {') at -= 1
    return at + 1
  }

  it('reports the broken file, names file, line and field of each refused row, imports the rest', async () => {
    const db = app.app.services.database.db
    const { failed, byFile } = await importFolder(db, app.app.services.objects, malformed)
    expect(failed.map((f) => [f.name, f.error.skipped])).toEqual([
      ['Broken.json', false],
      ['_Session.json', true],
    ])
    expect(failed[0]!.error.message).toMatch(
      /not a class export.*HTML page.*Export the class again/,
    )

    const score = byFile.get('Score.json')!
    expect(score).toMatchObject({ imported: 3, rows: 4 })
    expect(score.refused).toEqual([
      {
        line: rowStart('Score.json', 'NaN'),
        objectId: 'score2',
        field: 'points',
        reason: expect.stringMatching(
          new RegExp(
            `NaN is not a JSON number.*line ${lineOf('Score.json', 'NaN')}.*run the import again`,
          ),
        ),
      },
    ])
    const notes = byFile.get('Note.json')!
    expect(notes.imported).toBe(3)
    expect(notes.refused).toEqual([
      expect.objectContaining({
        line: rowStart('Note.json', '123.5'),
        field: 'where',
        reason: expect.stringMatching(/latitude 123\.5 is outside -90 to 90.*Correct it/),
      }),
      expect.objectContaining({
        line: rowStart('Note.json', 'bad-name'),
        field: 'bad-name',
        reason: expect.stringMatching(/Rename the field/),
      }),
    ])
  })

  it('leaves nothing of a refused user behind, and writes the row once it is fixed', async () => {
    const db = app.app.services.database.db
    const rows = rowsOf(malformed, '_User.json')
    const bad = rows[1]!
    const report = (await importFolder(db, app.app.services.objects, malformed)).byFile.get(
      '_User.json',
    )!
    // The first user was imported by the previous test; the second is refused whole.
    expect(report.refused).toEqual([
      expect.objectContaining({
        objectId: bad.objectId,
        field: 'accounts',
        line: rowStart('_User.json', 'not-an-address'),
      }),
    ])
    const leftovers = async () => ({
      users: (await db.select().from(users).where(eq(users.id, bad.objectId))).length,
      addresses: (
        await db
          .select()
          .from(userAddresses)
          .where(sql`lower(${userAddresses.address}) = ${bad.ethAddress as string}`)
      ).length,
      objects: (
        await db
          .select()
          .from(objects)
          .where(sql`${objects.id} in (${bad.objectId}, ${bad.ethAddress as string})`)
      ).length,
    })
    expect(await leftovers()).toEqual({ users: 0, addresses: 0, objects: 0 })

    // Fixed: the same command writes the user, the wallet and the `_User` row.
    const fixed = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-import-fixed-'))
    fs.writeFileSync(
      path.join(fixed, '_User.json'),
      JSON.stringify(
        [
          rows[0],
          { ...bad, accounts: (bad.accounts as string[]).filter((a) => a.startsWith('0x')) },
        ],
        null,
        2,
      ),
    )
    const again = (await importFolder(db, app.app.services.objects, fixed)).byFile.get(
      '_User.json',
    )!
    expect(again).toMatchObject({ imported: 1, unchanged: 1, refused: [] })
    expect(await leftovers()).toEqual({ users: 1, addresses: 1, objects: 2 })
    fs.rmSync(fixed, { recursive: true, force: true })
  })
})

describe('portico import parse', () => {
  it('imports a folder into the database npm start uses, says what it did, and refuses unknown options', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-import-'))
    const lines: string[] = []
    const outcomes = await importCommand(['parse', malformed], {
      env: { DATA_DIR: dataDir },
      print: (line) => lines.push(line),
    })
    expect(outcomes.map((o) => o.file)).toEqual([
      '_User.json',
      'Broken.json',
      'Note.json',
      'Score.json',
      '_Session.json',
    ])
    expect(outcomes.at(-1)!.skipped).toMatch(/^Sessions are not carried over/)
    expect(lines).toContain('Score.json: 3 rows imported, 0 already there, 1 refused')
    expect(
      lines.some((l) => /^ {2}Note\.json line \d+ \(objectId \w+\), field "where": /.test(l)),
    ).toBe(true)
    expect(lines.some((l) => l.startsWith('Broken.json line 1: not imported.'))).toBe(true)
    expect(lines.at(-1)).toMatch(
      /4 rows refused, 1 file not imported: fix them and run the same command again/,
    )
    await expect(
      importCommand(['parse', malformed, '--triggers'], { env: { DATA_DIR: dataDir } }),
    ).rejects.toThrow(/set CLOUD_CODE/)
    await expect(
      importCommand(['parse', malformed, '--force'], { env: { DATA_DIR: dataDir } }),
    ).rejects.toThrow(/Unknown option --force/)
    await expect(
      importCommand(['mongo', malformed], { env: { DATA_DIR: dataDir } }),
    ).rejects.toThrow(/Usage/)
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('runs cloud code save triggers on each row with --triggers', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-import-'))
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-export-'))
    const at = '2024-05-01T10:00:00.000Z'
    const rows = ['hello', 'bad', 'world'].map((title, i) => ({
      objectId: `note${i}`,
      title,
      createdAt: at,
      updatedAt: at,
      ACL: { '*': { read: true } },
    }))
    fs.writeFileSync(path.join(folder, 'Note.json'), JSON.stringify(rows))
    const lines: string[] = []
    await importCommand(['parse', folder, '--triggers'], {
      env: { DATA_DIR: dataDir, CLOUD_CODE: path.join(fixtures, 'cloud-import') },
      print: (line) => lines.push(line),
    })
    expect(lines).toContain('Note.json: 2 rows imported, 0 already there, 1 refused')
    expect(
      lines.some((l) => l.includes('Refused by cloud code: Bad titles are not imported.')),
    ).toBe(true)
    const handle = await openDatabase({ kind: 'pglite', dir: dataDir })
    try {
      const stored = await handle.db.select().from(objects).orderBy(objects.id)
      const notes = stored.filter((row) => row.className === 'Note')
      expect(notes.map((row) => [row.id, (row.data as { title: string }).title])).toEqual([
        ['note0', 'HELLO'],
        ['note2', 'WORLD'],
      ])
      const imported = stored.filter((row) => row.className === 'Imported')
      expect(imported.map((row) => (row.data as { note: string }).note).sort()).toEqual([
        'note0',
        'note2',
      ])
      expect(imported.every((row) => (row.data as { master: boolean }).master)).toBe(true)
    } finally {
      await handle.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
      fs.rmSync(folder, { recursive: true, force: true })
    }
  })
})
