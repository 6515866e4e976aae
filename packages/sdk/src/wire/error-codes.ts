// Every `code` the server answers errors with, written once: the server may throw only these
// (its `HttpError` takes an `ErrorCode`), and the SDK's `BackendError.code` is typed by them.

export const errorCodes = [
  // Requests in general
  'bad_request',
  'invalid_request',
  'invalid_json',
  'json_too_deep',
  'invalid_value',
  'not_found',
  'unauthorized',
  'forbidden',
  'cross_origin_refused',
  'rate_limited',
  'body_too_large',
  'unsupported_media_type',
  'internal',
  'server_starting',
  // Idempotency
  'invalid_idempotency_key',
  'idempotency_key_reused',
  'idempotency_in_progress',
  // Sign-in and sessions
  'siwe_malformed',
  'siwe_date_invalid',
  'siwe_address_not_checksummed',
  'siwe_resource_invalid',
  'siwe_domain_mismatch',
  'siwe_uri_mismatch',
  'siwe_chain_not_allowed',
  'siwe_app_mismatch',
  'siwe_issued_at_not_fresh',
  'siwe_expiration_missing',
  'siwe_expired',
  'siwe_expiration_too_far',
  'siwe_not_yet_valid',
  'nonce_unknown',
  'nonce_expired',
  'nonce_used',
  'signature_invalid',
  'signature_unverifiable',
  'session_not_found',
  // Linked wallets
  'address_taken',
  'address_not_linked',
  'last_address',
  'user_id_taken',
  // Events
  'invalid_range',
  'event_options_too_large',
  'admin_only',
  'read_only',
  'fresh_sign_in_required',
  // Objects and files
  'invalid_class_name',
  'invalid_field_name',
  'invalid_acl',
  'invalid_reference',
  'invalid_class_permissions',
  'class_permission_denied',
  'class_requires_sign_in',
  'role_name_taken',
  'class_exists',
  'object_id_taken',
  'invalid_query',
  'limit_too_large',
  'answer_too_large',
  'empty_file',
  'unsupported_file_type',
  'file_store_unavailable',
  'synced_class',
  'object_busy',
  // Cloud code: a trigger or function refused or failed (`details.parseCode` is Parse's code)
  'cloud_code_error',
  // Import
  'invalid_import',
  // RPC gateway
  'api_key_required',
  'invalid_api_key',
] as const

/** A code the server answers an error with. */
export type ErrorCode = (typeof errorCodes)[number]

/** The shape of every error answer: `{ "error": { "code", "message" } }`. */
export const errorBodySchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string', enum: errorCodes },
        message: { type: 'string' },
        details: {},
      },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
} as const
