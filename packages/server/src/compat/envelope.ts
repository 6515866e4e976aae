import { METHODS, type Method } from './call.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// The envelope of a call to the compatibility mount. The Parse JS SDK (and moralis-v1) sends
// every call as `POST` with a text/plain JSON body holding the real verb (`_method`), the app id
// (`_ApplicationId`), the session (`_SessionToken`) and a few client details beside the call's
// own parameters; REST clients send real verbs and `X-Parse-*` headers instead. Both read the
// same here.

/** What an envelope may carry besides the call's own parameters. */
const ENVELOPE_FIELDS: ReadonlySet<string> = new Set([
  '_method',
  '_ApplicationId',
  '_JavaScriptKey',
  '_ClientVersion',
  '_InstallationId',
  '_SessionToken',
  '_MasterKey',
  '_RevocableSession',
  '_context',
])

/** An HTTP request to the mount, as far as its envelope goes. */
export interface EnvelopeRequest {
  /** The verb on the wire. */
  method: string
  /** The parsed body: what the JSON held, the bytes of any other type, or undefined. */
  body: unknown
  headers: Readonly<Record<string, string | string[] | undefined>>
  /** The query string's parameters. */
  query: unknown
}

export interface Envelope {
  /** The call's verb, uppercase: `_method` of a POST, else the wire's (not yet checked). */
  method: string
  /** `_ApplicationId` or `X-Parse-Application-Id`, as sent. */
  applicationId: unknown
  /** The master key, when one was sent (`_MasterKey` or `X-Parse-Master-Key`). */
  masterKey: string | undefined
  /** `_SessionToken` or `X-Parse-Session-Token`, in the client's form (`r:…`). */
  sessionToken: string | undefined
  /** `X-Parse-Request-Id`: the client's idempotency key. */
  requestId: string | undefined
  /** `_InstallationId` or `X-Parse-Installation-Id`. */
  installationId: string | undefined
  /** `_context` or `X-Parse-Cloud-Context`: what the client passes to cloud code's triggers. */
  context: Record<string, unknown> | undefined
  /** The body's fields without the envelope's, and a GET's query parameters. */
  params: Record<string, unknown>
  /** The body's bytes when it was not JSON (a REST client's file upload). */
  bytes: Buffer | undefined
}

/**
 * Reads the envelope of `request`; refuses a body that is JSON but not an object.
 *
 * @example
 * readEnvelope({ method: 'POST', headers: {}, query: {}, body: { _method: 'GET', where: {} } })
 * // → { method: 'GET', params: { where: {} }, … }
 */
export function readEnvelope(request: EnvelopeRequest): Envelope {
  const raw = request.body
  if (Array.isArray(raw))
    throw new ParseError(ParseCode.INVALID_JSON, 'The body must be a JSON object.')
  const bytes = Buffer.isBuffer(raw) ? raw : undefined
  const body =
    raw !== null && typeof raw === 'object' && !bytes ? (raw as Record<string, unknown>) : {}
  const header = (name: string) => {
    const value = request.headers[name]
    return typeof value === 'string' ? value : undefined
  }
  const override = body._method
  const method = (
    typeof override === 'string' && request.method === 'POST' ? override : request.method
  ).toUpperCase()
  const token = body._SessionToken ?? header('x-parse-session-token')
  const params: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body))
    if (!ENVELOPE_FIELDS.has(key)) params[key] = value
  if (method === 'GET' && request.method === 'GET') Object.assign(params, request.query as object)
  return {
    method,
    applicationId: body._ApplicationId ?? header('x-parse-application-id'),
    masterKey: textOf(body._MasterKey ?? header('x-parse-master-key')),
    sessionToken: typeof token === 'string' ? token : undefined,
    requestId: header('x-parse-request-id'),
    installationId: textOf(body._InstallationId ?? header('x-parse-installation-id')) || undefined,
    context: contextOf(body._context ?? header('x-parse-cloud-context')),
    params,
    bytes,
  }
}

/** The cloud context sent (an object, or its JSON text in the header); anything else is none. */
function contextOf(value: unknown): Record<string, unknown> | undefined {
  let parsed = value
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value)
    } catch {
      throw new ParseError(ParseCode.INVALID_JSON, 'X-Parse-Cloud-Context is not valid JSON.')
    }
  }
  if (parsed === undefined || parsed === null) return undefined
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ParseError(ParseCode.INVALID_JSON, 'The cloud context must be a JSON object.')
  return parsed as Record<string, unknown>
}

/** A text value as sent; anything else sent as the master key is "" (never valid). */
const textOf = (value: unknown) =>
  value === undefined ? undefined : typeof value === 'string' ? value : ''

/**
 * The envelope's verb once checked: a known one, for this app (`appIdOptional`: a call that may
 * also come with no app id at all).
 */
export function checkEnvelope(envelope: Envelope, appId: string, appIdOptional = false): Method {
  const { method } = envelope
  if (!METHODS.has(method))
    throw new ParseError(ParseCode.INVALID_JSON, `Unsupported method ${method.slice(0, 10)}.`)
  if (envelope.applicationId !== appId && !(appIdOptional && envelope.applicationId === undefined))
    throw new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      'unauthorized: this server serves another application id.',
    )
  return method as Method
}
