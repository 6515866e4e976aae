import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import {
  compileStatement,
  rowsOf,
  runCompiled,
  type CompiledStatement,
  type Database,
} from '../db/client.ts'
import { adminAudit, objects } from '../db/schema.ts'
import { claimStatement, type IdempotencyClaim } from '../idempotency/store.ts'
import { permsOf, type Acl } from './acl.ts'
import type { Changer } from './access.ts'
import type { ObjectChange } from './changes.ts'
import { toWire, type WireObject } from './rows.ts'
import type { Document } from './wire.ts'

// Group commit of object creates (docs/decisions.md, "Group commit"). Creates that arrive while a group is
// being written go together into the next transaction: one multi-row INSERT of their
// idempotency records (with the final answer, known before the insert because ids and times
// are made here) and one of the objects. A create is answered only after its transaction
// committed, so every acknowledged object is durable, and the record and the object commit
// together: a retry can never see one without the other. The store (store.ts) runs the groups
// through its coalescer.

export interface CreateRequest {
  className: string
  ownerId: string
  data: Document
  acl: Acl
  /** Who writes it, when not its owner: the master key (`ANY_OWNER`) may write where others may not. */
  writer?: Changer | undefined
  /**
   * Made by a client that is not signed in (its owner is then `VISITOR_OWNER`, store.ts): allowed
   * only where the class's permissions name `*` for `create`.
   */
  signedOut?: boolean | undefined
  /** The id the client gave (Parse's custom object ids): written by `createRelated` only. */
  objectId?: string | undefined
  /** Signed out, allowed too in a class with no permissions at all (Parse's default). */
  openWithoutPermissions?: boolean | undefined
  /** The address of the client that sent it: a signed-out create counts against its limit. */
  client?: string | undefined
  idempotency?: IdempotencyClaim | undefined
  /**
   * Who the console's audit log names for this create (`object.create`, the object as written),
   * recorded in the same statement as the object: a master-key write costs no commit of its own.
   */
  auditActor?: string | undefined
}

/** `created`, or `taken` when the key already has a record (answer from that record instead). */
export type CreateOutcome = { created: WireObject } | { taken: true }

/** The marker `groupStatement` puts where the group goes, replaced by the group's JSON. */
const GROUP = '\u0000group'
let compiledGroup: CompiledStatement | undefined

/** The group statement (its text compiled once) with `input`, the group as JSON. */
function groupStatement(db: Database, input: string): CompiledStatement & { name: string } {
  compiledGroup ??= compileStatement(
    db,
    sql`
    with input as (
      select * from jsonb_to_recordset(${GROUP}::jsonb) as r(scope text, key text, hash text,
        answer jsonb, class_name text, id text, owner_id text, read_perm text[],
        write_perm text[], data jsonb, at timestamptz, keyed boolean, audit_actor text)),
    claimed as (${claimStatement(
      sql`(select scope, key, hash, 201 as status, answer, at from input where key is not null)`,
    )}),
    made as (insert into ${objects}
      (class_name, id, owner_id, read_perm, write_perm, data, created_at, updated_at)
    select class_name, id, owner_id, read_perm, write_perm, data, at, at from input i
    where not i.keyed or exists (select 1 from claimed c where c.scope = i.scope and c.key = i.key)
    returning id),
    audited as (insert into ${adminAudit} (actor, action, target, before, after)
      select i.audit_actor, 'object.create', i.class_name || '/' || i.id, null, i.answer
      from input i join made m on m.id = i.id where i.audit_actor is not null)
    select id from made`,
  )
  return {
    name: 'portico_create_group',
    sql: compiledGroup.sql,
    params: compiledGroup.params.map((param) => (param === GROUP ? input : param)),
  }
}

/** Writes one group of creates; `publish` tells live listeners about the objects made. */
export async function writeGroup(
  db: Database,
  publish: (changes: ObjectChange[]) => Promise<void>,
  requests: CreateRequest[],
): Promise<CreateOutcome[]> {
  const now = new Date()
  const rows = requests.map((r) => ({
    className: r.className,
    id: randomBytes(12).toString('base64url'),
    ownerId: r.ownerId,
    ...permsOf(r.acl),
    data: r.data,
    createdAt: now,
    updatedAt: now,
  }))
  const answers = rows.map(toWire)
  // Within one group a key counts once: later repeats are answered from the first one's record.
  const seen = new Set<string>()
  const firstOfKey = requests.map((r) => {
    if (!r.idempotency) return true
    const id = `${r.idempotency.scope}\n${r.idempotency.key}`
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })
  // One statement (atomic on its own, one commit): claim the keys, then insert the objects
  // whose key was claimed (or that have none), and the audit entries of those inserted. The
  // group travels as one JSON parameter, so the statement's text is always the same: prepared
  // once per connection, it is neither built nor planned anew for each group.
  const at = now.toISOString()
  const input = JSON.stringify(
    requests.map((r, i) => {
      const claim = r.idempotency && firstOfKey[i] ? r.idempotency : undefined
      const row = rows[i]!
      return {
        scope: claim?.scope ?? null,
        key: claim?.key ?? null,
        hash: claim?.requestHash ?? null,
        // The answer is stored only where a record or an audit entry keeps it.
        answer: claim || r.auditActor !== undefined ? answers[i] : null,
        class_name: row.className,
        id: row.id,
        owner_id: row.ownerId,
        read_perm: row.readPerm,
        write_perm: row.writePerm,
        data: row.data,
        at,
        keyed: r.idempotency !== undefined,
        audit_actor: r.auditActor ?? null,
      }
    }),
  )
  const result = await runCompiled(db, groupStatement(db, input))
  const created = new Set(rowsOf<{ id: string }>(result).map((row) => row.id))
  // Not awaited: the objects are committed, and the notification (a round trip on PostgreSQL)
  // must not hold up the answers nor this group's place in the writer. It never throws.
  void publish(
    answers
      .filter((answer) => created.has(answer.objectId))
      .map((answer) => ({
        kind: 'create' as const,
        className: answer.className,
        objectId: answer.objectId,
        before: null,
        after: answer,
      })),
  )
  return rows.map((row, i) =>
    created.has(row.id) ? { created: answers[i]! } : { taken: true as const },
  )
}
