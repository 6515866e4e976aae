import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clusteredDatabase, databaseKinds } from '../../test/helpers.ts'
import { users } from '../db/schema.ts'
import { openChangeFeed, type ObjectChange } from './changes.ts'
import { FieldIndexes } from './field-indexes.ts'
import type { WireObject } from './rows.ts'
import { openObjectStore } from './store.ts'
import { ViewerRoles } from './viewer-roles.ts'

// A bulk write (a contract sync's range) builds the objects it tells live listeners about only
// when the class has a listener once the write committed.

const owner = { id: 'bulk-owner', address: '0x00000000000000000000000000000000000000b1' }
// Above the size from which rows are copied in, and below it.
const sizes = [120, 3]

describe.each(databaseKinds())('bulk writes and their listeners on %s', (kind) => {
  let database: Awaited<ReturnType<typeof clusteredDatabase>>
  beforeAll(async () => {
    database = await clusteredDatabase(kind)
    await database.db.insert(users).values(owner)
  })
  afterAll(async () => {
    await database.cluster.close()
    await database.close()
  })

  function storeWith(listens: (className: string) => boolean) {
    const published: ObjectChange[] = []
    const objects = openObjectStore({
      db: database.db,
      fieldIndexes: new FieldIndexes(database.db, database.cluster, () => {}),
      publish: async (changes) => void published.push(...changes),
      listens,
      answerMaxBytes: 1_000_000,
      roles: new ViewerRoles(database.db, database.cluster),
    })
    return { objects, published }
  }

  const rowsOf = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => ({
      id: `${prefix}-${i}`,
      data: { value: String(10n ** 30n + BigInt(i)), n: i },
    }))

  it.each(sizes)('writes %i rows and tells no one of a class no one listens to', async (count) => {
    const { objects, published } = storeWith(() => false)
    const className = `Quiet${count}`
    const written = await objects.transaction((_tx, writes) =>
      writes.insertMany(className, { ownerId: owner.id, acl: {} }, rowsOf('q', count), new Date()),
    )
    expect(written).toBe(count)
    expect(published).toEqual([])
    const stored = await objects.readAsServer({ className, objectId: `q-${count - 1}` })
    expect(stored?.data).toEqual({ value: String(10n ** 30n + BigInt(count - 1)), n: count - 1 })
  })

  it.each(sizes)(
    'tells every one of %i rows to a listener, one who came while the write ran included',
    async (count) => {
      let listening = false
      const className = `Heard${count}`
      const { objects, published } = storeWith((name) => listening && name === className)
      const rows = rowsOf('h', count)
      const written = await objects.transaction(async (_tx, writes) => {
        const made = await writes.insertMany(
          className,
          { ownerId: owner.id, acl: { '*': { read: true } } },
          rows,
          new Date(),
        )
        // Subscribed before the commit: it hears the rows committed after.
        listening = true
        return made
      })
      expect(written).toBe(count)
      expect(published.map((change) => [change.kind, change.objectId, change.after?.data])).toEqual(
        rows.map((row) => ['create', row.id, row.data]),
      )
      expect(published[0]!.after).toMatchObject({
        className,
        owner: owner.id,
        publicRead: true,
        acl: { '*': { read: true } },
      })
      // A second write of the same ids writes nothing and tells nothing.
      published.length = 0
      expect(
        await objects.transaction((_tx, writes) =>
          writes.insertMany(className, { ownerId: owner.id, acl: {} }, rows, new Date()),
        ),
      ).toBe(0)
      expect(published).toEqual([])
    },
  )

  it('says whether a class has a listener: in this process alone on the embedded database', async () => {
    const feed = openChangeFeed(database.db, database.cluster, async () => null)
    await feed.ready
    const alone = kind === 'pglite'
    expect(feed.listens('Activity')).toBe(!alone)
    const stop = feed.listen(
      () => {},
      (className) => className === 'Activity',
    )
    expect(feed.listens('Activity')).toBe(true)
    expect(feed.listens('Other')).toBe(!alone)
    stop()
    expect(feed.listens('Activity')).toBe(!alone)
    // A listener that names no classes hears them all.
    const all = feed.listen(() => {})
    expect(feed.listens('Other')).toBe(true)
    all()
    await feed.close()
  })

  it('sends many creates of a class as ids, read back only where a listener wants the class', async () => {
    const reads: string[] = []
    const asRead = (className: string, objectId: string) =>
      ({ objectId, className, data: { read: true } }) as unknown as WireObject
    const feed = openChangeFeed(database.db, database.cluster, async (keys) => {
      reads.push(keys.objectId)
      return asRead(keys.className, keys.objectId)
    })
    await feed.ready
    let wanted = false
    const heard: ObjectChange[] = []
    const stop = feed.listen(
      (change) => heard.push(change),
      (className) => wanted && className === 'Many',
    )
    const creates = (round: number): ObjectChange[] =>
      Array.from({ length: 120 }, (_, i) => ({
        kind: 'create',
        className: 'Many',
        objectId: `m${round}-${i}`,
        before: null,
        after: asRead('Many', `m${round}-${i}`),
      }))
    const marker = (objectId: string): ObjectChange => ({
      kind: 'update',
      className: 'Marker',
      objectId,
      before: null,
      after: asRead('Marker', objectId),
    })
    const heardMarker = (objectId: string) =>
      expect.poll(() => heard.some((c) => c.objectId === objectId)).toBe(true)

    await feed.publish([...creates(1), marker('one')])
    await heardMarker('one')
    const many = () => heard.filter((c) => c.className === 'Many').map((c) => c.objectId)
    // In one process the objects are told as they are; between processes, as ids.
    expect(many()).toEqual(kind === 'pglite' ? creates(1).map((c) => c.objectId) : [])
    expect(reads).toEqual([])

    wanted = true
    heard.length = 0
    await feed.publish([...creates(2), marker('two')])
    await heardMarker('two')
    expect(many()).toEqual(creates(2).map((c) => c.objectId))
    expect(heard.filter((c) => c.className === 'Many').every((c) => c.after !== null)).toBe(true)
    expect(reads).toEqual(kind === 'pglite' ? [] : creates(2).map((c) => c.objectId))
    stop()
    await feed.close()
  })
})
