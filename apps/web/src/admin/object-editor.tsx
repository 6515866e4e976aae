import { useState } from 'react'
import { placeholderLabel } from '@portico/sdk/wire'
import type { Acl } from '@portico/sdk/backend'
import { AclEditor } from './acl-editor.tsx'
import { aclOfDraft, draftOf, sameAcl } from './acl-form.ts'
import type { SectionProps } from './section.ts'
import { change } from './use-admin.ts'
import { consoleCall } from './console-api.ts'

export interface ConsoleObject {
  objectId: string
  owner: string
  /** The owner's wallet address, when the console's answer named it. */
  ownerAddress?: string | undefined
  publicRead: boolean
  acl: Acl
  /** Wallet addresses of the users its page names (owners, ACL entries), by user id. */
  addresses?: Record<string, string> | undefined
  createdAt: string
  updatedAt: string
  data: Record<string, unknown>
}

/** One object's JSON, owner and ACL: checked here before saving, and by the server. */
export function ObjectEditor({
  client,
  role,
  className,
  object,
  onDone,
}: SectionProps & { className: string; object: ConsoleObject; onDone: () => void }) {
  const [text, setText] = useState(JSON.stringify(object.data, null, 2))
  const shownOwner = object.ownerAddress ?? object.owner
  const ownedBy = placeholderLabel(object.owner)
  const [owner, setOwner] = useState(shownOwner)
  const [access, setAccess] = useState(() => draftOf(object.acl, object.addresses))
  const [problem, setProblem] = useState<string>()
  const [confirming, setConfirming] = useState(false)
  const params = { className, objectId: object.objectId }
  const readOnly = role !== 'admin'

  const save = async () => {
    let data: unknown
    try {
      data = JSON.parse(text)
    } catch (error) {
      return setProblem(`The JSON is not valid: ${(error as Error).message}`)
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data))
      return setProblem('The record must be a JSON object ({ … }).')
    const acl = aclOfDraft(access)
    if ('problem' in acl) return setProblem(acl.problem)
    // The ACL as it was (users by address): sent only when changed, so that a new owner takes
    // the old owner's place in it.
    const unchanged = aclOfDraft(draftOf(object.acl, object.addresses))
    const aclChanged = !('acl' in unchanged) || !sameAcl(unchanged.acl, acl.acl)
    const failed = await change(() =>
      consoleCall(client, 'PUT /api/admin/classes/:className/:objectId', {
        params,
        body: {
          // A JSON object, as checked above.
          data: data as Record<string, unknown>,
          ...(aclChanged ? { acl: acl.acl } : {}),
          ...(owner.trim() !== shownOwner ? { owner: owner.trim() } : {}),
        },
      }),
    )
    if (failed) setProblem(failed)
    else onDone()
  }
  const remove = async () => {
    const failed = await change(() =>
      consoleCall(client, 'DELETE /api/admin/classes/:className/:objectId', { params }),
    )
    setConfirming(false)
    if (failed) setProblem(failed)
    else onDone()
  }

  return (
    <section className="card object-editor" aria-labelledby="editor-heading">
      <h3 id="editor-heading">
        {className} <span className="mono">{object.objectId}</span>
      </h3>
      <p className="muted">
        Created {new Date(object.createdAt).toISOString()} · updated{' '}
        {new Date(object.updatedAt).toISOString()}
      </p>
      <label className="stacked">
        Record (JSON)
        <textarea
          rows={10}
          className="mono"
          value={text}
          readOnly={readOnly}
          onChange={(event) => {
            setText(event.target.value)
            setProblem(undefined)
          }}
        />
      </label>
      {ownedBy ? (
        <p className="muted">
          Owned by {ownedBy}: written by the server itself, not by a person. Name a user as the new
          owner to hand it over.
        </p>
      ) : null}
      <label className="stacked">
        Owner (wallet address or user id)
        <input
          value={owner}
          readOnly={readOnly}
          onChange={(event) => setOwner(event.target.value)}
        />
      </label>
      <AclEditor
        draft={access}
        readOnly={readOnly}
        onChange={(draft) => {
          setAccess(draft)
          setProblem(undefined)
        }}
      />
      {problem ? (
        <p role="alert" className="console-problem">
          {problem}
        </p>
      ) : null}
      <p className="console-toolbar">
        {readOnly ? null : (
          <button type="button" onClick={save}>
            Save
          </button>
        )}
        {readOnly ? null : confirming ? (
          <span role="group" aria-label="Confirm deletion" className="confirm">
            <strong>Delete this object for good?</strong>
            <button type="button" className="danger" onClick={remove}>
              Yes, delete
            </button>
            <button type="button" className="button-secondary" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </span>
        ) : (
          <button type="button" className="button-secondary" onClick={() => setConfirming(true)}>
            Delete…
          </button>
        )}
        <button type="button" className="button-secondary" onClick={onDone}>
          Close
        </button>
      </p>
    </section>
  )
}
