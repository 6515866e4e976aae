import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { databaseKinds } from '../../test/helpers.ts'
import { listeningApp, parseLogIn, type ListeningApp } from '../../test/compat.ts'

// Queries through the real `parse` package (Parse JS SDK, Node build) as the SDK's own
// integration suite runs them: quoted text (`startsWith`, `endsWith`, `contains`), regex
// options, nested `include`, and the sub-query operators, each under the caller's ACLs.

const require = createRequire(import.meta.url)
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose SDK types
const Parse = require('parse/node') as any
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose SDK types
type ParseObject = any

const names = (objects: ParseObject[]) => objects.map((o) => o.get('name') as string).sort()

describe.each(databaseKinds())('queries through the parse SDK on %s', (kind) => {
  let server: ListeningApp
  const alice = privateKeyToAccount(generatePrivateKey())
  const bob = privateKeyToAccount(generatePrivateKey())

  beforeAll(async () => {
    server = await listeningApp(kind)
    Parse.initialize('portico')
    Parse.serverURL = server.serverUrl
    Parse.User.enableUnsafeCurrentUser()
    await parseLogIn(Parse, alice)
    const Word = Parse.Object.extend('Word')
    await Parse.Object.saveAll(
      ['a.b', 'axb', 'a\\Eb', 'x(y', 'x^y', 'first\nsecond', 'Café', '$tail'].map(
        (name) => new Word({ name }),
      ),
    )
  })
  afterAll(async () => {
    await Parse.User.logOut().catch(() => {})
    await server.close()
  })

  const words = () => new Parse.Query('Word')

  it('matches startsWith, endsWith and contains literally (the SDK quotes with \\Q…\\E)', async () => {
    expect(names(await words().contains('name', 'a.b').find())).toEqual(['a.b'])
    expect(names(await words().startsWith('name', 'x(').find())).toEqual(['x(y'])
    expect(names(await words().endsWith('name', '^y').find())).toEqual(['x^y'])
    expect(names(await words().contains('name', '\\E').find())).toEqual(['a\\Eb'])
    expect(names(await words().startsWith('name', '$').find())).toEqual(['$tail'])
    expect(names(await words().endsWith('name', 'fé').find())).toEqual(['Café'])
    // Case-insensitive through the `i` option, still literal.
    expect(names(await words().startsWith('name', 'CAF', 'i').find())).toEqual(['Café'])
    // A regex of the caller's own still works, with a quoted part inside.
    expect(names(await words().matches('name', '^a\\Q.\\E').find())).toEqual(['a.b'])
  })

  it("reads $options 'm' as changing only ^ and $ (they match at each line)", async () => {
    const multiline = ['first\nsecond']
    expect(names(await words().matches('name', '^second$', 'm').find())).toEqual(multiline)
    expect(names(await words().matches('name', '^first$', 'mi').find())).toEqual(multiline)
    expect(names(await words().matches('name', '^second$').find())).toEqual([])
    // `.` matches a newline with or without `m` (as on Parse Server's PostgreSQL).
    expect(names(await words().matches('name', 't.s', 'm').find())).toEqual(multiline)
    expect(names(await words().matches('name', 't.s').find())).toEqual(multiline)
  })

  describe('include and sub-queries', () => {
    let post: ParseObject
    let secretId: string

    beforeAll(async () => {
      await parseLogIn(Parse, bob)
      const Author = Parse.Object.extend('Author')
      const City = Parse.Object.extend('City')
      const city = await new City({ name: 'Lisbon' }).save()
      const author = await new Author({ name: 'ann', city }).save()
      const other = await new Author({ name: 'ben', city }).save()
      const secret = new Author({ name: 'hidden' })
      secret.setACL(new Parse.ACL(Parse.User.current()))
      await secret.save()
      secretId = secret.id
      const Post = Parse.Object.extend('Post')
      post = await new Post({
        name: 'hello',
        author,
        authorName: 'ann',
        authors: [author, other, secret],
        tags: ['x'],
      }).save()
      // Everyone reads it; its author only bob reads.
      await new Post({
        name: 'secret post',
        author: secret,
        authorName: 'hidden',
        tags: ['x', 'y'],
      }).save()
      await parseLogIn(Parse, alice)
    })

    it('resolves dot paths, arrays of pointers and includeAll, under the reader ACLs', async () => {
      const found = await new Parse.Query('Post').include('author.city').get(post.id)
      expect(found.get('author').get('name')).toBe('ann')
      expect(found.get('author').get('city').get('name')).toBe('Lisbon')

      const listed = await new Parse.Query('Post').include('authors').first()
      const authors = listed.get('authors')
      expect(authors.map((a: ParseObject) => a.get('name'))).toEqual(['ann', 'ben', undefined])
      // Alice may not read bob's private author: it stays a bare pointer.
      expect(authors[2].id).toBe(secretId)
      expect(authors[2].isDataAvailable()).toBe(false)

      const all = await new Parse.Query('Post').includeAll().first()
      expect(all.get('author').get('name')).toBe('ann')
      expect(all.get('authors')[1].get('name')).toBe('ben')
      // includeAll is one level deep, as in Parse.
      expect(all.get('author').get('city').isDataAvailable()).toBe(false)

      // A selected dot path keeps its field (and the object it includes).
      const selected = await new Parse.Query('Post')
        .include('author')
        .select('author.name')
        .get(post.id)
      expect(selected.get('author').get('name')).toBe('ann')
      expect(selected.has('tags')).toBe(false)

      const deep = await new Parse.Query('Post').include(['authors.city']).first()
      expect(deep.get('authors')[1].get('city').get('name')).toBe('Lisbon')
    })

    const posts = () => new Parse.Query('Post')
    const authorsNamed = (name: string) => new Parse.Query('Author').equalTo('name', name)

    it('matchesQuery / doesNotMatchQuery read the inner class under the caller ACLs', async () => {
      expect(names(await posts().matchesQuery('author', authorsNamed('ann')).find())).toEqual([
        'hello',
      ])
      // Alice cannot read the hidden author: the inner query finds nothing for her.
      expect(names(await posts().matchesQuery('author', authorsNamed('hidden')).find())).toEqual([])
      expect(
        names(await posts().doesNotMatchQuery('author', authorsNamed('hidden')).find()),
      ).toEqual(['hello', 'secret post'])
      expect(names(await posts().doesNotMatchQuery('author', authorsNamed('ann')).find())).toEqual([
        'secret post',
      ])
      // Nested: posts by an author living in a city named Lisbon.
      const inLisbon = new Parse.Query('Author').matchesQuery(
        'city',
        new Parse.Query('City').equalTo('name', 'Lisbon'),
      )
      expect(names(await posts().matchesQuery('author', inLisbon).find())).toEqual(['hello'])
      await parseLogIn(Parse, bob)
      try {
        expect(names(await posts().matchesQuery('author', authorsNamed('hidden')).find())).toEqual([
          'secret post',
        ])
        expect(
          names(
            await posts().matchesKeyInQuery('authorName', 'name', authorsNamed('hidden')).find(),
          ),
        ).toEqual(['secret post'])
      } finally {
        await parseLogIn(Parse, alice)
      }
    })

    it('matchesKeyInQuery / doesNotMatchKeyInQuery compare with the inner objects values', async () => {
      const authors = () => new Parse.Query('Author')
      expect(
        names(await posts().matchesKeyInQuery('authorName', 'name', authors()).find()),
      ).toEqual(['hello'])
      expect(
        names(await posts().doesNotMatchKeyInQuery('authorName', 'name', authors()).find()),
      ).toEqual(['secret post'])
      const withIds = await posts()
        .matchesKeyInQuery('name', 'name', new Parse.Query('Post').containsAll('tags', ['y']))
        .find()
      expect(names(withIds)).toEqual(['secret post'])
    })

    it('nor, containedBy and exclude', async () => {
      const nor = Parse.Query.nor(
        posts().equalTo('name', 'hello'),
        posts().containsAll('tags', ['z']),
      )
      expect(names(await nor.find())).toEqual(['secret post'])
      expect(names(await posts().containedBy('tags', ['x']).find())).toEqual(['hello'])
      expect(names(await posts().containedBy('tags', ['x', 'y', 'q']).find())).toEqual([
        'hello',
        'secret post',
      ])
      const slim = await posts().exclude('tags', 'authors').get(post.id)
      expect([slim.get('name'), slim.get('tags'), slim.get('authors')]).toEqual([
        'hello',
        undefined,
        undefined,
      ])
      const listed = await posts().exclude('tags').equalTo('name', 'hello').find()
      expect(listed[0].has('tags')).toBe(false)
      expect(listed[0].get('authorName')).toBe('ann')
    })

    it('refuses a sub-query on a class the mount does not serve, and malformed ones', async () => {
      await expect(
        posts().matchesQuery('author', new Parse.Query('_Session')).find(),
      ).rejects.toMatchObject({ code: 119 })
      await expect(
        posts()._addCondition('author', '$inQuery', { where: {} }).find(),
      ).rejects.toMatchObject({ code: 102 })
    })

    it('fetchWithInclude takes dot paths', async () => {
      const Post = Parse.Object.extend('Post')
      const bare = Post.createWithoutData(post.id)
      await bare.fetchWithInclude(['author.city'])
      expect(bare.get('author').get('city').get('name')).toBe('Lisbon')
    })
  })
})
