import { PLACEHOLDER_USERS } from '@portico/sdk/wire'
import { and, eq, inArray } from 'drizzle-orm'
import type { Sessions } from './sessions.ts'
import type { UserHoldings } from './user-holdings.ts'
import { files, objects, users } from '../db/schema.ts'
import type { FileStore } from '../files/store.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import { recordAudit } from '../audit/log.ts'

// Deleting a user, as Parse lets a user delete themselves (`user.destroy()`) and the master key
// any user; the console too. Their sessions, wallets, password login and mail links go, and
// their `_User` and `_EthAddress` objects. What they own otherwise (objects, files) is kept,
// handed over to a user who never signs in, or deleted, as USER_DELETE_OBJECTS says. ACL
// entries naming them elsewhere are left as they are: they open nothing once the user is gone.
// Recorded in the audit log with what went and what was kept.

/** Owner of what deleted users owned when the site keeps it: a user who never signs in. */
export const DELETED_OWNER = {
  id: PLACEHOLDER_USERS.deleted.id,
  address: PLACEHOLDER_USERS.deleted.address,
}

/** What happens to a deleted user's objects and files (USER_DELETE_OBJECTS). */
export type DeletedUserObjects = 'keep' | 'delete'

export interface DeleteUserSources {
  userHoldings: UserHoldings
  objects: ObjectStore
  sessions: Sessions
  files: FileStore
}

/** Classes whose objects are the user's account itself: deleted with them whatever the setting. */
const ACCOUNT_CLASSES = ['_User', '_EthAddress']

/**
 * Deletes user `userId`; false when there is no such user. `actor` is who the audit log names
 * (the user themselves, the master key or a console user).
 */
export async function deleteUser(
  sources: DeleteUserSources,
  userId: string,
  input: { actor: string; objects: DeletedUserObjects },
): Promise<boolean> {
  if (userId === DELETED_OWNER.id) return false
  const holdings = await sources.userHoldings.of(userId)
  if (!holdings) return false
  const { user, login, wallets, objects: owned, files: ownedFiles } = holdings
  // Files first, outside the transaction: their bytes may be in another store.
  if (input.objects === 'delete')
    for (const name of ownedFiles) await sources.files.remove(name, userId)
  let kept = 0
  let deleted = 0
  await sources.objects.transaction(async (tx, writes) => {
    if (input.objects === 'keep') await tx.insert(users).values(DELETED_OWNER).onConflictDoNothing()
    for (const [className, ids] of owned) {
      if (input.objects === 'delete' || ACCOUNT_CLASSES.includes(className)) {
        deleted += (await writes.remove(className, ids)).length
        continue
      }
      const moved = await tx
        .update(objects)
        .set({ ownerId: DELETED_OWNER.id })
        .where(and(eq(objects.className, className), inArray(objects.id, ids)))
        .returning({ id: objects.id })
      kept += moved.length
    }
    if (input.objects === 'keep')
      await tx.update(files).set({ ownerId: DELETED_OWNER.id }).where(eq(files.ownerId, userId))
    // Sessions, wallets, the password login and mail links go with the user row (cascade).
    await tx.delete(users).where(eq(users.id, userId))
    await recordAudit(tx, {
      actor: input.actor,
      action: 'user.delete',
      target: `user/${userId}`,
      before: {
        address: user.address,
        wallets,
        ...(login ? { username: login.username, email: login.email } : {}),
        objects: [...owned.values()].reduce((sum, ids) => sum + ids.length, 0),
        files: ownedFiles.length,
      },
      after: { setting: input.objects, objectsKept: kept, objectsDeleted: deleted },
    })
  })
  await sources.sessions.forget({ userId })
  return true
}
