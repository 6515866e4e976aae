import { isDeepStrictEqual } from 'node:util'
import { MAIL_TOKEN_TTL_MS, type MailPurpose } from '../auth/mail-tokens.ts'
import { MAX_PASSWORD_BYTES, hashPassword, type LoginClash } from '../auth/passwords.ts'
import type { Mailer } from '../mail/mailer.ts'
import { ANY_OWNER } from '../objects/access.ts'
import type { Document } from '../objects/wire.ts'
import { TOKEN_PREFIX, type CompatAnswer, type CompatCall } from './call.ts'
import { ParseCode, ParseError } from './parse-error.ts'
import { toParseObject } from '../objects/parse-shape.ts'
import { applyParseWrite, createAcl } from './parse-object.ts'
import { checkUserWrite } from './user-fields.ts'

// Username/password users as the Parse clients use them: `signUp`, `logIn`, `verifyPassword`,
// a password, username or email changed by saving the user, `requestPasswordReset` and
// `requestEmailVerification`, with Parse Server's answers and error codes. The hash is kept in
// `password_logins` (auth/passwords.ts), never in the user's object, so nothing that reads
// objects can show it. The links the mails carry lead to pages of the server (mail-pages.ts).

/** Parse's codes for users (the Parse clients' `Parse.Error`). */
export const UserCode = {
  OTHER_CAUSE: -1,
  INVALID_EMAIL_ADDRESS: 125,
  USERNAME_MISSING: 200,
  PASSWORD_MISSING: 201,
  USERNAME_TAKEN: 202,
  EMAIL_TAKEN: 203,
  EMAIL_MISSING: 204,
  EMAIL_NOT_FOUND: 205,
} as const

/** Most characters of a username or email (Parse sets none; a bound keeps rows and mails small). */
const MAX_NAME_LENGTH = 256
/** A password longer than this is refused unread at log-in (bcrypt reads 72 bytes anyway). */
const MAX_LOGIN_PASSWORD_LENGTH = 1024
/** Reset mails one address may be sent an hour: nobody can flood someone's inbox. */
const RESET_MAILS_PER_HOUR = 5

const invalidLogin = () => new ParseError(ParseCode.OBJECT_NOT_FOUND, 'Invalid username/password.')

const clashError = (clash: LoginClash | 'id') =>
  clash === 'email'
    ? new ParseError(UserCode.EMAIL_TAKEN, 'Account already exists for this email address.')
    : new ParseError(UserCode.USERNAME_TAKEN, 'Account already exists for this username.')

/** Whether a `POST users` is a sign-up with a password (not a wallet sign-in). */
export function isSignUp(params: Record<string, unknown>): boolean {
  return params.authData === undefined && ('password' in params || 'username' in params)
}

function checkUsername(value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw new ParseError(UserCode.USERNAME_MISSING, 'bad or missing username')
  if (value.length > MAX_NAME_LENGTH)
    throw new ParseError(
      UserCode.USERNAME_MISSING,
      `A username is at most ${MAX_NAME_LENGTH} characters.`,
    )
  return value
}

/** A new password: a non-empty string bcrypt reads whole. */
function checkNewPassword(value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw new ParseError(UserCode.PASSWORD_MISSING, 'password is required')
  if (Buffer.byteLength(value) > MAX_PASSWORD_BYTES)
    throw new ParseError(
      ParseCode.VALIDATION_ERROR,
      `A password is at most ${MAX_PASSWORD_BYTES} bytes (bcrypt reads no more).`,
    )
  return value
}

function checkEmail(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !/^.+@.+$/.test(value) || value.length > MAX_NAME_LENGTH)
    throw new ParseError(UserCode.INVALID_EMAIL_ADDRESS, 'Email address format is invalid.')
  return value
}

/** Refuses a client that has tried too often within the window. */
async function limit(
  call: CompatCall,
  key: string,
  max: number,
  windowMs: number,
  message: string,
): Promise<void> {
  const counted = await call.services.windowCounter.add(key, 1, windowMs, max)
  if (counted.count > max) throw new ParseError(ParseCode.CONNECTION_FAILED, message)
}

/** Log-ins, sign-ups and password checks of one client address: each costs a bcrypt hash. */
const limitPasswordTries = (call: CompatCall) =>
  limit(
    call,
    `compat-password:${call.request.ip}`,
    call.services.config.app.authRateLimit,
    60_000,
    'Too many log-in attempts: try again in a minute.',
  )

/** `POST users` with a username and password: a new user, signed in. */
export async function signUp(call: CompatCall): Promise<CompatAnswer> {
  const { services } = call
  const { username, password, email, ACL, ...fields } = call.params
  const name = checkUsername(username)
  const secret = checkNewPassword(password)
  const address = checkEmail(email)
  if ('emailVerified' in fields) throw verificationForbidden()
  await limitPasswordTries(call)
  await services.passwordUsers.assertUsernameFree(name, undefined, true)
  // Fields the client may not set on a user (authData, sessionToken, wallets) are refused here.
  const data: Document = checkUserWrite(
    applyParseWrite({}, { ...fields, username: name, ...(address ? { email: address } : {}) }),
    [],
  )
  if (address) data.emailVerified = false
  const made = await services.passwordUsers.create({
    username: name,
    email: address,
    passwordHash: await hashPassword(secret),
  })
  if ('clash' in made) throw clashError(made.clash)
  const now = new Date()
  try {
    await services.objects.insertAbsent([
      {
        className: '_User',
        id: made.id,
        ownerId: made.id,
        // Users are private unless the sign-up says otherwise, as in Parse Server since 6; the
        // sent ACL always keeps the user's own read and write, as Parse Server adds them.
        acl: {
          ...(ACL === undefined ? {} : createAcl(ACL, made.id)),
          [made.id]: { read: true, write: true },
        },
        data,
        createdAt: now,
        updatedAt: now,
      },
    ])
  } catch (error) {
    // Without its object the user could never be read: the sign-up is undone.
    await removeUser(call, made.id)
    throw error
  }
  const session = await services.passwordUsers.startSession({
    userId: made.id,
    ttlMs: services.config.app.sessionTtlMs,
    userAgent: call.request.headers['user-agent'],
  })
  if (address && services.mailer) sendInBackground(call, made.id, address, 'verify')
  return {
    status: 201,
    body: {
      objectId: made.id,
      createdAt: now.toISOString(),
      sessionToken: TOKEN_PREFIX + session.token,
    },
  }
}

async function removeUser(call: CompatCall, userId: string) {
  await call.services.passwordUsers.remove(userId)
}

/** The username (or email) and password of a log-in or password check, as Parse reads them. */
function credentialsOf(params: Record<string, unknown>) {
  const { username, email, password } = params
  if (!username && !email)
    throw new ParseError(UserCode.USERNAME_MISSING, 'username/email is required.')
  if (!password) throw new ParseError(UserCode.PASSWORD_MISSING, 'password is required.')
  if (
    typeof password !== 'string' ||
    password.length > MAX_LOGIN_PASSWORD_LENGTH ||
    (email && typeof email !== 'string') ||
    (username && typeof username !== 'string')
  )
    throw invalidLogin()
  return {
    username: (username as string | undefined) || undefined,
    email: (email as string | undefined) || undefined,
    password,
  }
}

async function passwordUser(call: CompatCall) {
  const { password, ...by } = credentialsOf(call.params)
  await limitPasswordTries(call)
  const login = await call.services.passwordUsers.check(by, password)
  if (!login) throw invalidLogin()
  // Read as the server, as Parse Server does: a user whose own ACL shuts even them out (`{}`)
  // still signs in with their password and gets their object back.
  const object = await call.services.objects.get('_User', login.userId, ANY_OWNER)
  if (!object) throw invalidLogin()
  return { login, object }
}

/** `GET` / `POST login` (`Parse.User.logIn`): the user, with a new session's token. */
export async function logIn(call: CompatCall): Promise<CompatAnswer> {
  const { services } = call
  const { login, object } = await passwordUser(call)
  // Cloud code's beforeLogin may refuse (a ban) before any session exists.
  await services.signIns.beforeLogin?.({ id: login.userId })
  const session = await services.passwordUsers.startSession({
    userId: login.userId,
    ttlMs: services.config.app.sessionTtlMs,
    userAgent: call.request.headers['user-agent'],
  })
  return { body: { ...toParseObject(object), sessionToken: TOKEN_PREFIX + session.token } }
}

/** `GET` / `POST verifyPassword` (`Parse.User.verifyPassword`): the user, no session. */
export async function verifyPassword(call: CompatCall): Promise<CompatAnswer> {
  const { object } = await passwordUser(call)
  return { body: toParseObject(object) }
}

const verificationForbidden = () =>
  new ParseError(
    ParseCode.OPERATION_FORBIDDEN,
    "Clients aren't allowed to manually update email verification.",
  )

/**
 * What saving a password user changes in their login (`password`, `username`, `email`), before
 * the rest of the save is stored: only the user themself or the master key may. A new password
 * ends every session of the user, as Parse Server does; the caller (unless the master key)
 * gets a new one, whose token `afterUpdate` adds to the answer. Returns the fields left to
 * store in the user's object.
 */
export async function updateLoginFields(
  call: CompatCall,
  objectId: string,
  fields: Record<string, unknown>,
): Promise<{
  fields: Record<string, unknown>
  afterUpdate(answer: CompatAnswer): Promise<CompatAnswer>
}> {
  const { password, ...rest } = fields
  const same = { fields, afterUpdate: async (answer: CompatAnswer) => answer }
  if ('emailVerified' in rest && !call.master) throw verificationForbidden()
  const touches = password !== undefined || 'username' in rest || 'email' in rest
  if (!touches) return same
  const login = await call.services.passwordUsers.find({ userId: objectId })
  if (!login) {
    // A wallet user's username and email stay the display values they always were, unique.
    if ('username' in rest)
      await call.services.passwordUsers.assertUsernameFree(rest.username, objectId, false)
    if (password === undefined) return same
    throw new ParseError(
      ParseCode.OPERATION_FORBIDDEN,
      'This user signs in with a wallet: a password cannot be set on it.',
    )
  }
  const current = call.master ? undefined : await call.requireSession()
  if (current && current.user.id !== objectId)
    throw new ParseError(ParseCode.OBJECT_NOT_FOUND, 'Object not found.')
  const change: { username?: string; email?: string | null; passwordHash?: string } = {}
  if ('username' in rest && rest.username !== login.username) {
    change.username = checkUsername(rest.username)
    await call.services.passwordUsers.assertUsernameFree(change.username, objectId, true)
  }
  let newEmail: string | undefined
  if ('email' in rest) {
    const sent = isDelete(rest.email) ? null : (checkEmail(rest.email) ?? null)
    if (!isDeepStrictEqual(sent?.toLowerCase() ?? null, login.email?.toLowerCase() ?? null)) {
      change.email = sent
      newEmail = sent ?? undefined
      rest.emailVerified = sent === null ? { __op: 'Delete' } : false
    }
  }
  if (password !== undefined) change.passwordHash = await hashPassword(checkNewPassword(password))
  const clash = await call.services.passwordUsers.update(objectId, change)
  if (clash) throw clashError(clash)
  if (newEmail && call.services.mailer) sendInBackground(call, objectId, newEmail, 'verify')
  if (password === undefined) return { fields: rest, afterUpdate: same.afterUpdate }
  return {
    fields: rest,
    async afterUpdate(answer) {
      const { passwordUsers, sessions, config } = call.services
      await passwordUsers.revokeSessions(objectId)
      await sessions.forget({ userId: objectId })
      if (!current) return answer
      const session = await passwordUsers.startSession({
        userId: objectId,
        ttlMs: config.app.sessionTtlMs,
        userAgent: call.request.headers['user-agent'],
      })
      return {
        ...answer,
        body: { ...(answer.body as object), sessionToken: TOKEN_PREFIX + session.token },
      }
    },
  }
}

const isDelete = (value: unknown) =>
  typeof value === 'object' && value !== null && (value as { __op?: unknown }).__op === 'Delete'

/** The refusal of a mail request on a server without SMTP_URL (400: retrying will not help). */
function mailUnavailable(): CompatAnswer {
  return {
    status: 400,
    body: {
      code: ParseCode.INTERNAL_SERVER_ERROR,
      error:
        'This server sends no mail (SMTP_URL is not set): password reset and email verification are unavailable.',
    },
  }
}

function requestedEmail(params: Record<string, unknown>): string {
  const { email } = params
  if (!email) throw new ParseError(UserCode.EMAIL_MISSING, 'you must provide an email')
  if (typeof email !== 'string' || email.length > MAX_NAME_LENGTH)
    throw new ParseError(UserCode.INVALID_EMAIL_ADDRESS, 'you must provide a valid email string')
  return email
}

/**
 * `POST requestPasswordReset`: mails a reset link to the user of that email. An unknown email
 * gets the same answer (as Parse Server answers by default), so the answer tells nobody which
 * addresses have accounts; the mail goes out after the answer for the same reason.
 */
export async function requestPasswordReset(call: CompatCall): Promise<CompatAnswer> {
  if (!call.services.mailer) return mailUnavailable()
  const email = requestedEmail(call.params)
  await limit(
    call,
    `compat-reset:${call.request.ip}`,
    call.services.config.app.authRateLimit,
    60_000,
    'Too many password reset requests: try again in a minute.',
  )
  await limit(
    call,
    `compat-reset-mail:${email.toLowerCase()}`,
    RESET_MAILS_PER_HOUR,
    60 * 60_000,
    'Too many password reset requests for this address: try again in an hour.',
  )
  const login = await call.services.passwordUsers.find({ email })
  if (login?.email) sendInBackground(call, login.userId, login.email, 'reset')
  return { body: {} }
}

/** `POST verificationEmailRequest`: mails the user of that email a new verification link. */
export async function requestEmailVerification(call: CompatCall): Promise<CompatAnswer> {
  if (!call.services.mailer) return mailUnavailable()
  const email = requestedEmail(call.params)
  await limit(
    call,
    `compat-reset:${call.request.ip}`,
    call.services.config.app.authRateLimit,
    60_000,
    'Too many verification requests: try again in a minute.',
  )
  const login = await call.services.passwordUsers.find({ email })
  if (!login?.email)
    throw new ParseError(UserCode.EMAIL_NOT_FOUND, `No user found with email ${email}`)
  if (login.emailVerified)
    throw new ParseError(UserCode.OTHER_CAUSE, `Email ${email} is already verified.`)
  await limit(
    call,
    `compat-reset-mail:${email.toLowerCase()}`,
    RESET_MAILS_PER_HOUR,
    60 * 60_000,
    'Too many verification requests for this address: try again in an hour.',
  )
  sendInBackground(call, login.userId, login.email, 'verify')
  return { body: {} }
}

/** The page a mailed link opens (mail-pages.ts), below the mount. */
export const MAIL_PAGES: Record<MailPurpose, string> = {
  reset: 'password-reset',
  verify: 'verify-email',
}

/** The mail of `purpose` with its link, sent after the answer; a failure is logged. */
function sendInBackground(call: CompatCall, userId: string, email: string, purpose: MailPurpose) {
  const { services } = call
  const mailer = services.mailer as Mailer
  const { app, compat } = services.config
  const send = async () => {
    const token = await services.passwordUsers.issueMailToken({ userId, purpose, email })
    const link = `${app.publicOrigins[0]}${compat.mount ?? '/server'}/${MAIL_PAGES[purpose]}?token=${token}`
    const hours = MAIL_TOKEN_TTL_MS[purpose] / 3_600_000
    const valid = `The link works once, for ${hours === 1 ? 'an hour' : `${hours} hours`}.`
    await mailer.send(
      purpose === 'reset'
        ? {
            to: email,
            subject: `Reset your ${app.appName} password`,
            text: `Someone asked to reset the password of your ${app.appName} account. To choose a new one, open:\n\n${link}\n\n${valid} If you did not ask, ignore this mail: your password stays as it is.\n`,
          }
        : {
            to: email,
            subject: `Confirm your email for ${app.appName}`,
            text: `To confirm that this is your email address for ${app.appName}, open:\n\n${link}\n\n${valid}\n`,
          },
    )
  }
  send().catch((error: unknown) =>
    call.request.log.error({ err: error, purpose }, 'a password-user mail could not be sent'),
  )
}
