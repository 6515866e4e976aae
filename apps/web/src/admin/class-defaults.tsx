import type { BackendClient } from '@portico/sdk/backend'
import { useConsole } from './console-api.ts'

const PUBLIC = {
  read: 'Reads it',
  none: 'No access',
  'on-request': 'Reads it when it is saved public (publicRead); otherwise no access',
} as const

/**
 * The class-level rules behind each object's own ACL: who writes the class and the ACL a new
 * object starts with, folded under the class picker.
 */
export function ClassDefaultsPanel({
  client,
  className,
}: {
  client: BackendClient
  className: string
}) {
  const loaded = useConsole(client, 'GET /api/admin/classes/:className/defaults', {
    params: { className },
  })
  if (loaded.state.status !== 'ready') return null
  const defaults = loaded.state.data
  return (
    <details className="class-defaults">
      <summary>Class defaults</summary>
      <dl>
        <dt>Who creates and changes objects</dt>
        <dd>
          {defaults.writers === 'sync'
            ? `The contract sync "${defaults.sync}" alone (the console can still correct a row)`
            : 'Signed-in users and the site’s cloud code, each object by its ACL; the console, every object'}
        </dd>
        <dt>A new object’s creator</dt>
        <dd>{defaults.newObject.creator === 'read-write' ? 'Reads and writes it' : 'No access'}</dd>
        <dt>Everyone, for a new object</dt>
        <dd>{PUBLIC[defaults.newObject.public]}</dd>
      </dl>
      <p>An object saved with its own ACL keeps it; open an object to change its access.</p>
      <p>
        Class-level permissions (who may find, get, count, create, update, delete or add fields, and
        the fields hidden from some) come before the ACLs: they are this class’s object in{' '}
        <code>_SCHEMA</code>, set with <code>Parse.Schema#setCLP</code> or edited there. A class
        without one is open; once it has one, an operation it leaves out is closed to all but the
        master key and the console, so write every operation you mean to allow.
      </p>
    </details>
  )
}
