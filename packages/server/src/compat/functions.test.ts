import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { databaseKinds, signedIn, testApp } from '../../test/helpers.ts'
import { loadSiteModule } from '../site-module.ts'

// The site's own functions (FUNCTIONS_MODULE), called as v1 apps call Cloud.run.

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures')

describe.each(databaseKinds())('site functions on %s', (kind) => {
  it('runs them with the caller, answers { result }, and 141 with the message when one fails', async () => {
    const { app } = await testApp(kind, {
      functionsModule: path.join(fixtures, 'site-functions.mjs'),
    })
    const run = async (name: string, params: object, token?: string) => {
      const answer = await app.inject({
        method: 'POST',
        url: `/server/functions/${name}`,
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify({
          _ApplicationId: 'portico',
          ...params,
          ...(token ? { _SessionToken: `r:${token}` } : {}),
        }),
      })
      return answer.json()
    }
    const { user, token } = await signedIn(app)
    expect(await run('whoami', {}, token)).toEqual({ result: { address: user.address } })
    expect(await run('whoami', {})).toEqual({ result: { address: null } })
    expect(await run('add', { a: 2, b: 3 })).toEqual({ result: 5 })
    expect(await run('add', { a: 'x' })).toEqual({ code: 141, error: 'a and b must be numbers' })
    // Nothing returned answers no `result`, as Parse Server does: the clients resolve undefined.
    expect(await run('nothing', {})).toEqual({})
    expect(await run('missing', {})).toEqual({ code: 141, error: 'Invalid function: "missing"' })
    // A thrown value that cannot even be read is still the function's failure.
    expect(await run('throwsProxy', {})).toEqual({
      code: 141,
      error: 'The cloud code threw a value that cannot be read.',
    })
  })
})

it('refuses a module that redefines a built-in, naming it', async () => {
  await expect(loadSiteModule(path.join(fixtures, 'bad-functions.mjs'))).rejects.toThrow(
    'The function "getServerTime" is already defined.',
  )
})
