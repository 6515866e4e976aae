import { describe, expect, it } from 'vitest'
import { clusteredDatabase, databaseKinds, recordingLog } from '../../test/helpers.ts'
import { openCluster } from '../db/cluster/cluster.ts'
import { openChangeFeed, type ObjectChange } from './changes.ts'
import type { WireObject } from './rows.ts'

const object = (objectId: string, note: string) =>
  ({ objectId, className: 'Note', note }) as unknown as WireObject

describe.each(databaseKinds())('the change feed on %s', (kind) => {
  it('tells every process of each change, a big one read back as it is now', async () => {
    const database = await clusteredDatabase(kind)
    // A second process on PostgreSQL; on the embedded database this one is alone.
    const other =
      kind === 'postgres'
        ? await openCluster(database, { shared: {}, liveMaxSocketsPerAddress: 20 }, recordingLog())
        : undefined
    const big = object('b', 'x'.repeat(10_000))
    const reads: string[] = []
    const readObject = async (keys: { objectId: string }) => {
      reads.push(keys.objectId)
      return big
    }
    const here = openChangeFeed(database.db, database.cluster, readObject)
    const there = other ? openChangeFeed(database.db, other, readObject) : here
    const heard: ObjectChange[] = []
    there.listen((change) => heard.push(change))
    try {
      await Promise.all([here.ready, there.ready])
      const small = Array.from({ length: 30 }, (_, i) => ({
        kind: 'create' as const,
        className: 'Note',
        objectId: `s${i}`,
        before: null,
        after: object(`s${i}`, 'y'.repeat(500)),
      }))
      await here.publish([
        ...small,
        { kind: 'update', className: 'Note', objectId: 'b', before: big, after: big },
      ])
      await expect.poll(() => heard.length).toBe(31)
      expect(heard.slice(0, 30)).toEqual(small)
      if (kind === 'postgres') {
        // Too big for a notification: its keys travel, and each process reads the object back.
        expect(heard[30]).toEqual({
          kind: 'update',
          className: 'Note',
          objectId: 'b',
          before: null,
          after: big,
        })
        // Each process reads it on its own notification: the one without a listener may be later.
        await expect.poll(() => reads).toEqual(['b', 'b'])
      } else {
        expect(heard[30]!.before).toBe(big)
      }
    } finally {
      await here.close()
      await there.close()
      await other?.close()
      await database.close()
    }
  })
})
