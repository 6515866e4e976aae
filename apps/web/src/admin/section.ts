import type { BackendClient } from '@portico/sdk/backend'

/** The console role `/api/admin/me` answered: admins change things, viewers look. */
export type Role = 'admin' | 'viewer'

/** What every section of the console is drawn with. */
export interface SectionProps {
  client: BackendClient
  role: Role
}
