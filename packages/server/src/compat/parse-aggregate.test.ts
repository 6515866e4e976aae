import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds } from '../../test/helpers.ts'
import { type ListeningApp, type ParseSdk, parseTarget } from '../../test/compat.ts'

// Full text search, aggregate pipelines, distinct and equalTo on an array field, through the
// real `parse` client, as a Parse app uses them.

const require = createRequire(import.meta.url)
const Parse = require('parse/node') as ParseSdk

const MASTER = 'master-key-for-the-aggregate-tests'
const master = { useMasterKey: true }

describe.each(databaseKinds())('text search and aggregates through the parse SDK on %s', (kind) => {
  let server: ListeningApp

  beforeAll(async () => {
    server = await parseTarget(kind, Parse, MASTER)
    const Sale = Parse.Object.extend('Sale')
    const rows = [
      {
        item: 'coffee',
        price: 3,
        shop: 'North',
        tags: ['hot', 'drink'],
        note: 'Coffee beans roasted daily',
      },
      {
        item: 'coffee',
        price: 5,
        shop: 'South',
        tags: ['hot'],
        note: 'The best coffee shops in town',
      },
      { item: 'tea', price: 2, shop: 'North', tags: ['drink'], note: 'Green tea and a biscuit' },
      { item: 'cake', price: 4, shop: 'South', tags: [], note: 'Baked every morning' },
    ]
    for (const row of rows) {
      const sale = new Sale(row)
      sale.setACL(new Parse.ACL({ '*': { read: true } }))
      await sale.save(null, master)
    }
  })
  afterAll(() => server.close())

  const items = (found: { get(key: string): unknown }[]) => found.map((o) => o.get('item')).sort()

  it('finds by full text, stemmed and case-insensitive, in the language asked', async () => {
    const query = new Parse.Query('Sale').fullText('note', 'COFFEE')
    expect(items(await query.find())).toEqual(['coffee', 'coffee'])
    // Stems: "bake" finds "Baked"; a phrase and an excluded word read as a web search.
    expect(items(await new Parse.Query('Sale').fullText('note', 'bake').find())).toEqual(['cake'])
    expect(items(await new Parse.Query('Sale').fullText('note', 'coffee -roasted').find())).toEqual(
      ['coffee'],
    )
    expect(
      items(
        await new Parse.Query('Sale').fullText('note', 'COFFEE', { caseSensitive: true }).find(),
      ),
    ).toEqual([])
    // Accents do not count unless asked: "thé" reads as "the", no French stop word.
    expect(
      items(await new Parse.Query('Sale').fullText('note', 'thé', { language: 'french' }).find()),
    ).toEqual(['coffee'])
    expect(
      items(
        await new Parse.Query('Sale')
          .fullText('note', 'thé', { language: 'french', diacriticSensitive: true })
          .find(),
      ),
    ).toEqual([])
    await expect(
      new Parse.Query('Sale').fullText('note', 'x', { language: 'klingon' }).find(),
    ).rejects.toMatchObject({ code: 102 })
  })

  it('matches an array field its schema declares by one of its elements', async () => {
    expect(await new Parse.Query('Sale').equalTo('tags', 'drink').find()).toEqual([])
    const schema = new Parse.Schema('Sale')
    schema.addArray('tags')
    await schema.update()
    expect(items(await new Parse.Query('Sale').equalTo('tags', 'drink').find())).toEqual([
      'coffee',
      'tea',
    ])
    expect(items(await new Parse.Query('Sale').equalTo('tags', 'hot').find())).toEqual([
      'coffee',
      'coffee',
    ])
  })

  it('runs aggregate pipelines and distinct with the master key alone', async () => {
    const grouped = await new Parse.Query('Sale').aggregate([
      { $match: { price: { $gte: 3 } } },
      {
        $group: {
          _id: '$shop',
          total: { $sum: '$price' },
          average: { $avg: '$price' },
          cheapest: { $min: '$price' },
          dearest: { $max: '$price' },
          sales: { $sum: 1 },
        },
      },
      { $sort: { total: -1 } },
    ])
    expect(grouped).toEqual([
      { objectId: 'South', total: 9, average: 4.5, cheapest: 4, dearest: 5, sales: 2 },
      { objectId: 'North', total: 3, average: 3, cheapest: 3, dearest: 3, sales: 1 },
    ])
    const paged = await new Parse.Query('Sale').aggregate([
      { $sort: { price: 1 } },
      { $skip: 1 },
      { $limit: 2 },
      { $project: { item: 1, price: 1 } },
    ])
    expect(paged.map((row: Record<string, unknown>) => [row.item, row.price])).toEqual([
      ['coffee', 3],
      ['cake', 4],
    ])
    expect(Object.keys(paged[0]).sort()).toEqual(['item', 'objectId', 'price'])
    expect(await new Parse.Query('Sale').aggregate([{ $count: 'n' }])).toEqual([{ n: 4 }])
    expect(
      await new Parse.Query('Sale').aggregate({ $group: { _id: null, n: { $count: {} } } }),
    ).toEqual([{ objectId: null, n: 4 }])

    expect((await new Parse.Query('Sale').distinct('item')).sort()).toEqual([
      'cake',
      'coffee',
      'tea',
    ])
    expect(await new Parse.Query('Sale').equalTo('shop', 'North').distinct('price')).toEqual(
      expect.arrayContaining([2, 3]),
    )

    await expect(new Parse.Query('Sale').aggregate([{ $out: 'Elsewhere' }])).rejects.toMatchObject({
      code: 102,
    })
    const anonymous = await fetch(`${server.serverUrl}/aggregate/Sale?distinct=item`, {
      headers: { 'x-parse-application-id': 'portico' },
    })
    expect(await anonymous.json()).toMatchObject({ code: 119 })
  })
})
