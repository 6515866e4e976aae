import { eq } from 'drizzle-orm'
import {
  issueMailToken,
  mailTokenWorks,
  useMailToken,
  type MailPurpose,
} from '../auth/mail-tokens.ts'
import {
  checkLogin,
  createPasswordUser,
  findLogin,
  markEmailVerified,
  revokeSessions,
  startPasswordSession,
  updateLogin,
} from '../auth/passwords.ts'
import type { Database } from '../db/client.ts'
import { users } from '../db/schema.ts'
import { assertUsernameFree } from './usernames.ts'

/**
 * The password users of the Parse-compatible API on one database: their logins, sessions and
 * mailed tokens, for the mount's routes and mail pages (which hold no transaction of their own).
 */
export class PasswordUsers {
  readonly #db: Database

  constructor(db: Database) {
    this.#db = db
  }

  /** Throws 202 when `username` is another user's (see usernames.ts). */
  assertUsernameFree(username: unknown, userId: string | undefined, forPassword: boolean) {
    return assertUsernameFree(this.#db, username, userId, forPassword)
  }

  create(user: Parameters<typeof createPasswordUser>[1]) {
    return createPasswordUser(this.#db, user)
  }

  /** Deletes a user row whose sign-up could not be completed. */
  async remove(userId: string): Promise<void> {
    await this.#db.delete(users).where(eq(users.id, userId))
  }

  find(by: Parameters<typeof findLogin>[1]) {
    return findLogin(this.#db, by)
  }

  check(by: Parameters<typeof checkLogin>[1], password: string) {
    return checkLogin(this.#db, by, password)
  }

  update(userId: string, change: Parameters<typeof updateLogin>[2]) {
    return updateLogin(this.#db, userId, change)
  }

  startSession(p: Parameters<typeof startPasswordSession>[1]) {
    return startPasswordSession(this.#db, p)
  }

  revokeSessions(userId: string) {
    return revokeSessions(this.#db, userId)
  }

  issueMailToken(p: { userId: string; purpose: MailPurpose; email: string }) {
    return issueMailToken(this.#db, p)
  }

  mailTokenWorks(token: string, purpose: MailPurpose) {
    return mailTokenWorks(this.#db, token, purpose)
  }

  useMailToken(token: string, purpose: MailPurpose) {
    return useMailToken(this.#db, token, purpose)
  }

  markEmailVerified(userId: string, email: string) {
    return markEmailVerified(this.#db, userId, email)
  }

  /**
   * Uses a reset token and sets the new password hash, signing out every session, in one
   * transaction: the user's id, or undefined when the token no longer works.
   */
  resetPassword(token: string, passwordHash: string): Promise<string | undefined> {
    return this.#db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database
      const used = await useMailToken(tx, token, 'reset')
      if (!used) return undefined
      await updateLogin(tx, used.userId, { passwordHash })
      await revokeSessions(tx, used.userId)
      return used.userId
    })
  }
}
