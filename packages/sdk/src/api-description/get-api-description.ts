import type { BackendClient } from '../backend/client.ts'

/** The parts of an OpenAPI 3.1 document the SDK looks at; the rest is kept as is. */
export interface ApiDescription {
  openapi: string
  info: { title: string; version: string }
  paths: Record<string, Record<string, unknown>>
  [key: string]: unknown
}

/** `GET /api/openapi.json`: the server's OpenAPI 3.1 description. */
export function getApiDescription(client: BackendClient): Promise<ApiDescription> {
  return client.request<ApiDescription>('GET', '/api/openapi.json')
}

/**
 * Whether the server describes an operation, e.g. `supportsOperation(doc, 'post', '/api/events')`.
 * Paths use OpenAPI templates (`/api/auth/sessions/{id}`).
 */
export function supportsOperation(
  description: ApiDescription,
  method: string,
  path: string,
): boolean {
  return Boolean(description.paths[path]?.[method.toLowerCase()])
}
