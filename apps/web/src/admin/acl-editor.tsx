import { newEntry, type AclDraft, type AclEntry } from './acl-form.ts'

/**
 * Who may read and who may change something (an object, a role): everyone's read and write,
 * then one entry per user (wallet address or user id) or role (by name), each with read and/or
 * write. Checked by `aclOfDraft` before saving.
 */
export function AclEditor({
  draft,
  onChange,
  readOnly,
  legend = 'Access (ACL)',
}: {
  draft: AclDraft
  onChange: (draft: AclDraft) => void
  readOnly: boolean
  legend?: string
}) {
  const setEntry = (id: number, change: Partial<AclEntry>) =>
    onChange({
      ...draft,
      entries: draft.entries.map((entry) => (entry.id === id ? { ...entry, ...change } : entry)),
    })
  const writers = draft.publicWrite || draft.entries.some((entry) => entry.write)
  return (
    <fieldset className="acl-editor">
      <legend>{legend}</legend>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={draft.publicRead}
          disabled={readOnly}
          onChange={(event) => onChange({ ...draft, publicRead: event.target.checked })}
        />
        Everyone may read it (public read)
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={draft.publicWrite}
          disabled={readOnly}
          onChange={(event) => onChange({ ...draft, publicWrite: event.target.checked })}
        />
        Everyone may change it (public write)
      </label>
      {draft.entries.length ? (
        <ol className="acl-entries">
          {draft.entries.map((entry, index) => {
            const n = `Entry ${index + 1}`
            return (
              <li key={entry.id} className="acl-entry">
                <select
                  aria-label={`${n}: user or role`}
                  value={entry.kind}
                  disabled={readOnly}
                  onChange={(event) =>
                    setEntry(entry.id, { kind: event.target.value as AclEntry['kind'] })
                  }
                >
                  <option value="user">User</option>
                  <option value="role">Role</option>
                </select>
                <input
                  aria-label={
                    entry.kind === 'user' ? `${n}: wallet address or user id` : `${n}: role name`
                  }
                  className={entry.kind === 'user' ? 'mono' : undefined}
                  value={entry.who}
                  readOnly={readOnly}
                  placeholder={entry.kind === 'user' ? '0x… or user id' : 'Role name'}
                  onChange={(event) => setEntry(entry.id, { who: event.target.value })}
                />
                <label className="checkbox">
                  <input
                    type="checkbox"
                    aria-label={`${n}: read`}
                    checked={entry.read}
                    disabled={readOnly}
                    onChange={(event) => setEntry(entry.id, { read: event.target.checked })}
                  />
                  Read
                </label>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    aria-label={`${n}: write`}
                    checked={entry.write}
                    disabled={readOnly}
                    onChange={(event) => setEntry(entry.id, { write: event.target.checked })}
                  />
                  Write
                </label>
                {readOnly ? null : (
                  <button
                    type="button"
                    className="button-secondary"
                    aria-label={`Remove entry ${index + 1}`}
                    onClick={() =>
                      onChange({
                        ...draft,
                        entries: draft.entries.filter((other) => other.id !== entry.id),
                      })
                    }
                  >
                    Remove
                  </button>
                )}
              </li>
            )
          })}
        </ol>
      ) : null}
      {readOnly ? null : (
        <p className="console-toolbar">
          <button
            type="button"
            className="button-secondary"
            onClick={() => onChange({ ...draft, entries: [...draft.entries, newEntry('user')] })}
          >
            Add a user
          </button>
          <button
            type="button"
            className="button-secondary"
            onClick={() => onChange({ ...draft, entries: [...draft.entries, newEntry('role')] })}
          >
            Add a role
          </button>
        </p>
      )}
      {writers ? null : (
        <p className="muted">Nobody may change it but the console (and the master key).</p>
      )}
    </fieldset>
  )
}
