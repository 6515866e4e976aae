// Entry point `@portico/sdk/backend`: the backend client, objects, files and their wire values.
export {
  createBackendClient,
  type BackendClient,
  type BackendClientConfig,
  type BackendFetch,
  type HttpMethod,
  type RequestOptions,
  type WebSocketClass,
} from './client.ts'
export { decode, encode, type DecodeErrorType, type EncodeErrorType } from './encode.ts'
export { createFile, Pointer, pointerTo, PorticoFile, type FileContent } from './values.ts'
export {
  destroyAll,
  destroyObject,
  fetchObject,
  queryObjects,
  saveAll,
  saveObject,
  type Acl,
  type ObjectData,
  type ObjectRef,
  type PorticoObject,
  type QueryObjectsParameters,
  type QueryObjectsReturnType,
  type SavedObject,
  type SaveObjectErrorType,
  type SaveObjectReturnType,
} from './objects.ts'
export { aclOf, type AclAccess, type AclOfParameters } from './acl.ts'
export {
  addToRole,
  createRole,
  deleteRole,
  getRole,
  listRoles,
  removeFromRole,
  updateRole,
  type CreateRoleParameters,
  type ListRolesParameters,
  type ListRolesReturnType,
  type Role,
  type RoleRef,
  type RoleSummary,
  type RoleMembers,
  type UpdateRoleParameters,
} from './roles.ts'
export { saveFile, type SaveFileErrorType } from './files.ts'
export type { LiveConnection } from './live-connection.ts'
export {
  subscribe,
  type LiveEvent,
  type SubscribeHandlers,
  type SubscribeParameters,
  type Subscription,
} from './live.ts'
export {
  BackendError,
  BatchError,
  InvalidDateError,
  InvalidWireValueError,
  UnsavedFileError,
  type BackendErrorCode,
  type BackendErrorParameters,
} from '../errors/backend.ts'
