import { deleteUser } from '../auth/delete-user.ts'
import type { CompatAnswer, CompatCall } from './call.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// `DELETE users/:id` and `classes/_User/:id` (`user.destroy()`), as in Parse: a user deletes
// themselves, the master key any user; someone else's user is 206, Parse Server's answer. What
// goes and what is kept is admin/delete-user.ts's.

export async function destroyUser(call: CompatCall, objectId: string): Promise<CompatAnswer> {
  const current = call.master ? undefined : await call.session()
  if (!call.master && current?.user.id !== objectId)
    throw new ParseError(ParseCode.SESSION_MISSING, 'Insufficient auth.')
  const actor = call.master
    ? `master key (${call.request.ip})`
    : (current!.user.address ?? `user/${objectId}`)
  const deleted = await deleteUser(call.services, objectId, {
    actor,
    objects: call.services.config.compat.userDeleteObjects ?? 'keep',
  })
  if (!deleted) throw new ParseError(ParseCode.OBJECT_NOT_FOUND, 'Object not found.')
  return { body: {} }
}
