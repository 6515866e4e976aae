import { describe, expect, it } from 'vitest'
import { checkEnvelope, readEnvelope, type EnvelopeRequest } from './envelope.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// The envelope as the Parse JS SDK sends it (everything in a text/plain body) and as REST
// clients send it (real verbs, `X-Parse-*` headers, a query string).

const request = (over: Partial<EnvelopeRequest>): EnvelopeRequest => ({
  method: 'POST',
  body: undefined,
  headers: {},
  query: {},
  ...over,
})

const refusal = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    if (error instanceof ParseError) return { code: error.code, message: error.message }
    throw error
  }
  throw new Error('not refused')
}

describe('readEnvelope', () => {
  it("takes the SDK's fields out of the body and leaves the call's own", () => {
    const envelope = readEnvelope(
      request({
        body: {
          _method: 'get',
          _ApplicationId: 'portico',
          _JavaScriptKey: 'js',
          _ClientVersion: 'js8.6.2',
          _InstallationId: 'install-1',
          _SessionToken: 'r:abc',
          _RevocableSession: '1',
          _context: {},
          _ContentType: 'image/png',
          where: { score: 1 },
          limit: 5,
        },
      }),
    )
    expect(envelope).toEqual({
      method: 'GET',
      applicationId: 'portico',
      masterKey: undefined,
      sessionToken: 'r:abc',
      requestId: undefined,
      // Cloud code's request objects read these two.
      installationId: 'install-1',
      context: {},
      // `_ContentType` is a file upload's own parameter.
      params: { _ContentType: 'image/png', where: { score: 1 }, limit: 5 },
      bytes: undefined,
    })
  })

  it('reads X-Parse-* headers and a GET query string from a REST client', () => {
    const envelope = readEnvelope(
      request({
        method: 'GET',
        headers: {
          'x-parse-application-id': 'portico',
          'x-parse-session-token': 'r:tok',
          'x-parse-request-id': 'req-1',
        },
        query: { where: '{"a":1}', limit: '2' },
      }),
    )
    expect(envelope).toMatchObject({
      method: 'GET',
      applicationId: 'portico',
      sessionToken: 'r:tok',
      requestId: 'req-1',
      params: { where: '{"a":1}', limit: '2' },
    })
  })

  it('lets the body win over the headers, and ignores repeated headers', () => {
    const envelope = readEnvelope(
      request({
        body: { _ApplicationId: 'from-body', _SessionToken: 'r:body' },
        headers: {
          'x-parse-application-id': 'from-header',
          'x-parse-session-token': 'r:header',
          'x-parse-request-id': ['one', 'two'],
        },
      }),
    )
    expect(envelope).toMatchObject({
      applicationId: 'from-body',
      sessionToken: 'r:body',
      requestId: undefined,
    })
  })

  it('takes `_method` from a POST only, and a query string for a GET only', () => {
    expect(readEnvelope(request({ method: 'PUT', body: { _method: 'DELETE' } })).method).toBe('PUT')
    const viaPost = readEnvelope(request({ body: { _method: 'GET' }, query: { limit: '1' } }))
    expect(viaPost).toMatchObject({ method: 'GET', params: {} })
  })

  it('drops a session token that is not a string (the header is not read then)', () => {
    const envelope = readEnvelope(
      request({ body: { _SessionToken: 5 }, headers: { 'x-parse-session-token': 'r:h' } }),
    )
    expect(envelope.sessionToken).toBeUndefined()
  })

  it('keeps the bytes of a body that was not JSON, and refuses a JSON array', () => {
    const bytes = Buffer.from('raw file')
    expect(readEnvelope(request({ body: bytes }))).toMatchObject({ bytes, params: {} })
    expect(refusal(() => readEnvelope(request({ body: [1] })))).toEqual({
      code: ParseCode.INVALID_JSON,
      message: 'The body must be a JSON object.',
    })
  })
})

describe('checkEnvelope', () => {
  const check = (over: Partial<EnvelopeRequest>) =>
    checkEnvelope(readEnvelope(request(over)), 'portico')

  it('answers the checked verb', () => {
    expect(check({ body: { _method: 'delete', _ApplicationId: 'portico' } })).toBe('DELETE')
  })

  it('refuses an unknown verb before anything else', () => {
    expect(refusal(() => check({ body: { _method: 'PATCHWORK', _MasterKey: 'k' } }))).toEqual({
      code: ParseCode.INVALID_JSON,
      message: 'Unsupported method PATCHWORK.',
    })
  })

  it("refuses another app's id", () => {
    expect(refusal(() => check({ body: { _ApplicationId: 'other' } }))).toEqual({
      code: ParseCode.OPERATION_FORBIDDEN,
      message: 'unauthorized: this server serves another application id.',
    })
  })

  it('reads the master key from the header or the body, anything but text as no valid key', () => {
    const read = (request: Partial<EnvelopeRequest>) =>
      readEnvelope({ method: 'POST', headers: {}, query: {}, body: {}, ...request }).masterKey
    expect(read({ headers: { 'x-parse-master-key': 'k1' } })).toBe('k1')
    expect(read({ body: { _MasterKey: 'k2', _method: 'GET' } })).toBe('k2')
    expect(read({ body: { _MasterKey: { $ne: null } } })).toBe('')
    expect(read({})).toBeUndefined()
  })
})
