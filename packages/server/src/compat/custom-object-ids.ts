import type { ServerConfig } from '../config/server.ts'
import { ParseCode, ParseError } from './parse-error.ts'

// Parse Server's `allowCustomObjectId` (COMPAT_ALLOW_CUSTOM_OBJECT_ID): a create may name its
// object's id, with Parse's checks and answers. Off (Parse's default too), an `objectId` or `id`
// in a create is refused as Parse refuses it. Portico's ids are letters, digits, `_` and `-`
// (they appear in paths and ACLs), so a given id is held to that.

const ID = /^[A-Za-z0-9_-]{1,64}$/

/** The objectId a create names (undefined: the server makes one), or Parse's refusal. */
export function customObjectId(
  config: Pick<ServerConfig, 'compat'>,
  params: Record<string, unknown>,
): string | undefined {
  const { objectId } = params
  if (config.compat.allowCustomObjectId !== true) {
    if (objectId)
      throw new ParseError(ParseCode.INVALID_KEY_NAME, 'objectId is an invalid field name.')
    if (params.id) throw new ParseError(ParseCode.INVALID_KEY_NAME, 'id is an invalid field name.')
    return undefined
  }
  if (Object.hasOwn(params, 'objectId') && !objectId)
    throw new ParseError(
      ParseCode.MISSING_OBJECT_ID,
      'objectId must not be empty, null or undefined',
    )
  if (objectId === undefined) return undefined
  if (typeof objectId !== 'string' || !ID.test(objectId))
    throw new ParseError(
      ParseCode.INVALID_KEY_NAME,
      'objectId is 1 to 64 letters, digits, _ and - on this server.',
    )
  return objectId
}
