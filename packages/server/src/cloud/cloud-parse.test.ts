import { createRequire } from 'node:module'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { loadConfig } from '../config/server.ts'
import { databaseKinds } from '../../test/helpers.ts'
import { listeningApp, parseLogIn, type ListeningApp } from '../../test/compat.ts'

// A Parse app's cloud code (test/fixtures/cloud-parse: CommonJS, `require`, the global `Parse`)
// loaded by CLOUD_CODE, used through the real `parse` client: functions, validators, every
// trigger kind, errors, the master key inside cloud code, the nesting guard and jobs. Triggers
// run in the object store, so `/api` and batches meet them too.

const require = createRequire(import.meta.url)
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loose SDK types
const Parse = require('parse/node') as any
const MASTER_KEY = 'cloud-test-master-key-0123456789'
const CLOUD = path.resolve(import.meta.dirname, '../../test/fixtures/cloud-parse')

async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise
  } catch (error) {
    const { code, message } = error as { code: number; message: string }
    return { code, message }
  }
  throw new Error('expected a refusal')
}

describe.each(databaseKinds())('cloud code of a Parse app on %s', (kind) => {
  let server: ListeningApp
  const alice = privateKeyToAccount(generatePrivateKey())
  const bob = privateKeyToAccount(generatePrivateKey())

  beforeAll(async () => {
    server = await listeningApp(kind, {
      cloudCode: CLOUD,
      cloudTimeoutMs: 2000,
      compat: { ...loadConfig({}).compat, masterKey: MASTER_KEY },
    })
    Parse.initialize('portico')
    Parse.serverURL = server.serverUrl
    Parse.User.enableUnsafeCurrentUser()
  })
  afterAll(async () => {
    await Parse.User.logOut().catch(() => {})
    await server?.close()
  })

  const master = { useMasterKey: true }
  const asMaster = async (run: () => Promise<unknown>) => {
    Parse.masterKey = MASTER_KEY
    try {
      return await run()
    } finally {
      Parse.masterKey = undefined
    }
  }

  it('answers functions with their result, undefined, a Parse.Error or 141', async () => {
    await Parse.User.logOut().catch(() => {})
    expect(await Parse.Cloud.run('hello', { name: 'Ann' })).toBe('Hello Ann')
    expect(await Parse.Cloud.run('nothing')).toBeUndefined()
    expect(await refusal(Parse.Cloud.run('fails'))).toEqual({
      code: 102,
      message: 'bad query, my friend',
    })
    expect(await refusal(Parse.Cloud.run('crashes'))).toEqual({
      code: 141,
      message: 'plain failure',
    })
    // A thrown value whose reading throws too (a getter, a Proxy) is a failure like any other.
    const unreadable = {
      throwsGetter: '[object Object]',
      throwsProxy: 'The cloud code threw a value that cannot be read.',
    }
    for (const [name, message] of Object.entries(unreadable))
      expect(await refusal(Parse.Cloud.run(name))).toEqual({ code: 141, message })
    const raw = await server.app.inject({
      method: 'POST',
      url: '/server/functions/throwsProxy',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ _ApplicationId: 'portico' }),
    })
    expect(raw.statusCode).toBe(400)
    expect(raw.json()).toMatchObject({ code: 141 })
    const late = await refusal(Parse.Cloud.run('slow'))
    expect(late.code).toBe(141)
    expect(late.message).toMatch(/did not finish within 2000 ms/)
    // The slow handler cost its own request only.
    expect(await Parse.Cloud.run('hello')).toBe('Hello world')
  })

  it('gives functions the caller, and the master key when it is used', async () => {
    const user = await parseLogIn(Parse, alice)
    expect(await Parse.Cloud.run('whoami')).toEqual({
      user: user.id,
      address: alice.address.toLowerCase(),
      master: false,
    })
    const asKey = (await asMaster(() => Parse.Cloud.run('whoami', {}, master))) as {
      master: boolean
    }
    expect(asKey.master).toBe(true)
  })

  it("checks validators with Parse's codes and messages", async () => {
    await Parse.User.logOut()
    expect(await refusal(Parse.Cloud.run('needsUser'))).toEqual({
      code: 142,
      message: 'Validation failed. Please login to continue.',
    })
    expect(await refusal(Parse.Cloud.run('needsMaster'))).toEqual({
      code: 142,
      message: 'Validation failed. Master key is required to complete this request.',
    })
    expect(await asMaster(() => Parse.Cloud.run('needsMaster', {}, master))).toBe('ok')
    expect(await refusal(Parse.Cloud.run('sized'))).toEqual({
      code: 142,
      message: 'Validation failed. Please specify data for size.',
    })
    expect((await refusal(Parse.Cloud.run('sized', { size: 'big' }))).message).toBe(
      'Validation failed. Invalid type for size. Expected: number',
    )
    expect((await refusal(Parse.Cloud.run('sized', { size: 7 }))).message).toMatch(
      /Invalid option for size/,
    )
    expect(await Parse.Cloud.run('sized', { size: 2 })).toBe(2)
    expect(await Parse.Cloud.run('limited')).toBe('ok')
    expect(await Parse.Cloud.run('limited')).toBe('ok')
    expect(await refusal(Parse.Cloud.run('limited'))).toEqual({
      code: 100,
      message: 'Too many requests.',
    })
  })

  it('runs beforeSave and afterSave on saves, batches and /api alike', async () => {
    const user = await parseLogIn(Parse, alice)
    const Note = Parse.Object.extend('Note')
    const note = await new Note({ text: 'Hello, Cloud Code!' }).save(null, {
      context: { tag: 'from-context' },
    })
    expect(note.get('slug')).toBe('hello-cloud-code')
    expect(note.get('createdBy')).toBe(user.id)
    expect(note.get('tag')).toBe('from-context')
    note.set('text', 'Second Words')
    await note.save()
    expect(note.get('slug')).toBe('second-words')
    const stored = await new Parse.Query('Note').get(note.id)
    expect(stored.get('slug')).toBe('second-words')

    const [one, two] = await Parse.Object.saveAll([
      new Note({ text: 'A b' }),
      new Note({ text: 'C d' }),
    ])
    expect([one.get('slug'), two.get('slug')]).toEqual(['a-b', 'c-d'])

    expect(await refusal(new Note({ text: 'forbidden' }).save())).toEqual({
      code: 142,
      message: 'Notes may not say that.',
    })

    // The same trigger meets a write on /api.
    const viaApi = await fetch(`${server.origin}/api/classes/Note`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${user.getSessionToken().slice(2)}`,
      },
      body: JSON.stringify({ data: { text: 'From The API' } }),
    })
    expect(viaApi.status).toBe(201)
    const made = (await viaApi.json()) as { data: Record<string, unknown> }
    expect(made.data.slug).toBe('from-the-api')
    const refused = await fetch(`${server.origin}/api/classes/Note`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${user.getSessionToken().slice(2)}`,
      },
      body: JSON.stringify({ data: { text: 'forbidden' } }),
    })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({
      error: {
        code: 'cloud_code_error',
        message: 'Notes may not say that.',
        details: { parseCode: 142 },
      },
    })

    const audits = await new Parse.Query('Audit')
      .equalTo('note', note.id)
      .ascending('createdAt')
      .find()
    expect(
      audits.map((a: { get(k: string): unknown }) => [
        a.get('action'),
        a.get('text'),
        a.get('before'),
      ]),
    ).toEqual([
      ['create', 'Hello, Cloud Code!', null],
      ['update', 'Second Words', 'Hello, Cloud Code!'],
    ])
  })

  it('runs beforeDelete (which may refuse) and afterDelete', async () => {
    await parseLogIn(Parse, alice)
    const Note = Parse.Object.extend('Note')
    const locked = await new Note({ text: 'keep me', locked: true }).save()
    expect(await refusal(locked.destroy())).toEqual({ code: 141, message: 'This note is locked.' })
    expect((await new Parse.Query('Note').get(locked.id)).id).toBe(locked.id)
    const gone = await new Note({ text: 'drop me' }).save()
    await gone.destroy()
    const audit = await new Parse.Query('Audit')
      .equalTo('note', gone.id)
      .equalTo('action', 'delete')
      .first()
    expect(audit).toBeDefined()
  })

  it('runs beforeFind and afterFind on queries and gets', async () => {
    await parseLogIn(Parse, bob)
    const Secret = Parse.Object.extend('Secret')
    const shown = await new Secret({ visible: true, text: 'shown' }).save()
    const hidden = await new Secret({ visible: false, text: 'hidden' }).save()
    const found = await new Parse.Query('Secret').find()
    expect(found.map((s: { get(k: string): unknown }) => [s.get('text'), s.get('seenBy')])).toEqual(
      [['shown', 'user']],
    )
    expect((await new Parse.Query('Secret').get(shown.id)).get('seenBy')).toBe('user')
    expect((await refusal(new Parse.Query('Secret').get(hidden.id))).code).toBe(101)
  })

  it('reads with the master key or the caller’s session inside cloud code', async () => {
    await parseLogIn(Parse, bob)
    const Note = Parse.Object.extend('Note')
    const privateNote = new Note({ text: 'bob only' })
    privateNote.setACL(new Parse.ACL(Parse.User.current()))
    await privateNote.save()
    const all = (await Parse.Cloud.run('countNotes')) as number
    const asVisitor = (await Parse.Cloud.run('countNotesAsVisitor')) as number
    const mine = (await Parse.Cloud.run('countMyNotes')) as number
    expect(all).toBeGreaterThan(asVisitor)
    expect(mine).toBeGreaterThan(asVisitor)
    const first = await Parse.Cloud.run('firstNote')
    expect(first).toBeInstanceOf(Parse.Object)
    expect(first.className).toBe('Note')
  })

  it('stops a trigger that saves its own class from nesting for ever', async () => {
    await parseLogIn(Parse, alice)
    const Loop = Parse.Object.extend('Loop')
    await new Loop({ n: 0 }).save()
    // The client's save, then one more per nested afterSave until the guard (16 deep).
    expect(await new Parse.Query('Loop').count()).toBe(17)
    expect(await Parse.Cloud.run('hello')).toBe('Hello world')
  })

  it('runs beforeLogin (which may refuse) and afterLogout', async () => {
    const carol = privateKeyToAccount(generatePrivateKey())
    const user = (await parseLogIn(Parse, carol)) as unknown as {
      id: string
      set(k: string, v: unknown): void
      save(): Promise<unknown>
    }
    await Parse.User.logOut()
    const audit = await new Parse.Query('Audit')
      .equalTo('action', 'logout')
      .equalTo('user', user.id)
      .first()
    expect(audit).toBeDefined()
    const again = (await parseLogIn(Parse, carol)) as unknown as typeof user
    again.set('banned', true)
    await again.save()
    await Parse.User.logOut()
    expect(await refusal(parseLogIn(Parse, carol))).toEqual({
      code: 101,
      message: 'You are banned.',
    })
  })

  it('starts jobs with the master key and records their runs', async () => {
    const headers = {
      'content-type': 'application/json',
      'x-parse-application-id': 'portico',
    }
    const refused = await fetch(`${server.serverUrl}/jobs/tally`, {
      method: 'POST',
      headers,
      body: '{}',
    })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { code: number }).code).toBe(119)
    const started = await fetch(`${server.serverUrl}/jobs/tally`, {
      method: 'POST',
      headers: { ...headers, 'x-parse-master-key': MASTER_KEY },
      body: JSON.stringify({ reason: 'test' }),
    })
    expect(started.status).toBe(200)
    const jobId = started.headers.get('x-parse-job-status-id')
    expect(jobId).toBeTruthy()
    const read = async () => {
      const answer = await fetch(`${server.serverUrl}/classes/_JobStatus/${jobId}`, {
        headers: { ...headers, 'x-parse-master-key': MASTER_KEY },
      })
      return (await answer.json()) as Record<string, unknown>
    }
    let run = await read()
    for (let i = 0; i < 100 && run.status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      run = await read()
    }
    expect(run).toMatchObject({ jobName: 'tally', status: 'succeeded', params: { reason: 'test' } })
    expect(String(run.message)).toMatch(/^counted \d+$/)
    expect((run.log as { message: string }[]).map((line) => line.message)).toEqual([
      expect.stringMatching(/^counted \d+ notes$/),
    ])
    // Nobody else reads the runs.
    const visitor = await fetch(`${server.serverUrl}/classes/_JobStatus/${jobId}`, { headers })
    expect(visitor.status).toBe(404)

    const broken = await server.app.services.cloud.jobs.start('broken', {}, 'console')
    let failed: Record<string, unknown> | undefined
    for (let i = 0; i < 100; i++) {
      const [latest] = await server.app.services.cloud.jobs.runs(5)
      if (latest?.objectId === broken && latest.data.status !== 'running') {
        failed = latest.data
        break
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(failed).toMatchObject({ status: 'failed', message: 'the job broke', source: 'console' })
  })

  it('runs jobs through Parse.Cloud: startJob, getJobStatus, getJobsData, as Parse Server answers', async () => {
    await asMaster(async () => {
      const jobId = await Parse.Cloud.startJob('tally', { reason: 'sdk' })
      let run = await Parse.Cloud.getJobStatus(jobId)
      for (let i = 0; i < 100 && run.get('status') === 'running'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        run = await Parse.Cloud.getJobStatus(jobId)
      }
      expect(run.get('status')).toBe('succeeded')
      expect(run.get('params')).toEqual({ reason: 'sdk' })
      // A job that throws a string fails with that string as its message.
      const grumpyId = await Parse.Cloud.startJob('grumpy')
      let grumpy = await Parse.Cloud.getJobStatus(grumpyId)
      for (let i = 0; i < 100 && grumpy.get('status') === 'running'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        grumpy = await Parse.Cloud.getJobStatus(grumpyId)
      }
      expect(grumpy.get('status')).toBe('failed')
      expect(grumpy.get('message')).toBe('not today')
      expect(await refusal(Parse.Cloud.startJob('nope'))).toEqual({
        code: 141,
        message: 'Invalid job.',
      })
      expect(await Parse.Cloud.getJobsData()).toEqual({
        jobs: ['broken', 'grumpy', 'tally'],
        in_use: [],
      })
    })
    // Without the master key the list is refused.
    const headers = { 'x-parse-application-id': 'portico' }
    const refused = await fetch(`${server.serverUrl}/cloud_code/jobs/data`, { headers })
    expect(((await refused.json()) as { code: number }).code).toBe(119)
  })
})
