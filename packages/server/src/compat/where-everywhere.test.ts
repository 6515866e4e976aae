import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds } from '../../test/helpers.ts'
import { type ListeningApp, type ParseSdk, parseSignOff, parseTarget } from '../../test/compat.ts'

// One `where` selects the same objects whether a find, a `distinct` or a LiveQuery subscription
// reads it: a constraint on a relation field, a sub-query on a pointer, and a sub-query on a
// relation field (run first, then read as the relation's members), through the real `parse`
// client.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-where-tests'
const master = { useMasterKey: true }
type Found = { id: string; get(key: string): unknown }

describe.each(databaseKinds())(
  'a where means the same in find, distinct and live on %s',
  (kind) => {
    let server: ListeningApp
    // Teams: red's roster holds ann (skilled) and red's captain is ann; blue's are ben; green has
    // cat on its roster but no captain.
    const teams = new Map<string, Found & { save(a: unknown, o: unknown): Promise<unknown> }>()
    let ann: Found

    beforeAll(async () => {
      server = await parseTarget(kind, Parse, MASTER)
      const open = () => new Parse.ACL({ '*': { read: true } })
      const player = async (name: string, skill: number) => {
        const object = new Parse.Object('Player', { name, skill })
        object.setACL(open())
        return object.save(null, master)
      }
      ann = await player('ann', 9)
      const ben = await player('ben', 3)
      const cat = await player('cat', 7)
      for (const [name, members, captain] of [
        ['red', [ann], ann],
        ['blue', [ben], ben],
        ['green', [cat], undefined],
      ] as const) {
        const team = new Parse.Object('Team', { name, round: 0, tags: [name, 'team'] })
        if (captain) team.set('captain', captain)
        team.setACL(open())
        team.relation('roster').add([...members])
        teams.set(name, await team.save(null, master))
      }
      const schema = new Parse.Schema('Team')
      schema.addArray('tags')
      await schema.update()
    })
    afterAll(async () => {
      await parseSignOff(Parse)
      await server.close()
    })

    const skilled = () => new Parse.Query('Player').greaterThan('skill', 5)
    const wheres: [string, () => { find(): Promise<Found[]> }, string[]][] = [
      [
        'a relation holding a member',
        () => new Parse.Query('Team').equalTo('roster', ann),
        ['red'],
      ],
      [
        'a sub-query on a pointer',
        () => new Parse.Query('Team').matchesQuery('captain', skilled()),
        ['red'],
      ],
      [
        'a sub-query on a relation',
        () => new Parse.Query('Team').matchesQuery('roster', skilled()),
        ['green', 'red'],
      ],
      [
        'a sub-query on a relation, negated',
        () => new Parse.Query('Team').doesNotMatchQuery('roster', skilled()),
        ['blue'],
      ],
    ]

    it.each(wheres)('%s: find and distinct select the same', async (_, query, expected) => {
      const found = await query().find()
      expect(found.map((team) => team.get('name')).sort()).toEqual(expected)
      const distinct = (await (
        query() as unknown as { distinct(key: string): Promise<string[]> }
      ).distinct('name')) as string[]
      expect(distinct.sort()).toEqual(expected)
    })

    it('an element of an array field its schema declares: find and distinct select the same', async () => {
      const query = () => new Parse.Query('Team').equalTo('tags', 'blue')
      expect((await query().find()).map((team: Found) => team.get('name'))).toEqual(['blue'])
      expect(await query().distinct('name')).toEqual(['blue'])
    })

    it.each(wheres)('%s: a subscription hears the same', async (_, query, expected) => {
      const subscription = await (
        query() as unknown as { subscribe(): Promise<ParseSubscription> }
      ).subscribe()
      const heard: string[] = []
      const done = new Promise<void>((resolve) =>
        subscription.on('update', (team: Found) => {
          heard.push(String(team.get('name')))
          if (team.get('last') === true) resolve()
        }),
      )
      // Every team changes; the last change is made to a team the where selects, so that once it
      // is heard every earlier one has been too.
      const order = [...teams.keys()].sort((a, b) =>
        expected.includes(a) === expected.includes(b) ? 0 : expected.includes(a) ? 1 : -1,
      )
      for (const [i, name] of order.entries()) {
        const team = teams.get(name)!
        await team.save(
          { round: Number(team.get('round')) + 1, last: i === order.length - 1 },
          master,
        )
      }
      await done
      expect(heard.sort()).toEqual(expected)
      await subscription.unsubscribe()
    })
  },
)

interface ParseSubscription {
  on(event: string, listener: (object: Found) => void): void
  unsubscribe(): Promise<void>
}
