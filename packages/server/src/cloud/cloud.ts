import type { WindowCounter } from '../db/cluster/cluster.ts'
import type { Users } from '../auth/users.ts'
import { currentScope } from '../http/request-scope.ts'
import { ANY_OWNER } from '../objects/access.ts'
import type {
  FindDraft,
  HookActor,
  HookContext,
  HookKind,
  ObjectHooks,
  SaveDraft,
} from '../objects/hooks.ts'
import { isRelation } from '../objects/relations.ts'
import type { WireObject } from '../objects/rows.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { ViewerRoles } from '../objects/viewer-roles.ts'
import type { CloudLogs } from './logs.ts'
import { clientToken } from './in-process.ts'
import { draftObject, savedFields, sdkObject, wireOf, type ParseShape } from './objects.ts'
import type { ParseSdk } from './parse-sdk.ts'
import type { CloudRegistry, Registered } from './registry.ts'
import { runCloud } from './run.ts'
import { validate } from './validator.ts'

// The site's cloud code at work: its triggers as the object store's hooks (so they run for
// every surface that writes or reads objects), its functions, and the login triggers. Each
// handler gets the request object Parse Server gives it.

export interface CloudDeps {
  users: Pick<Users, 'find'>
  objects: () => ObjectStore
  roles: ViewerRoles
  counter: WindowCounter
  logs: CloudLogs
  /** Most milliseconds a handler may take (jobs have none). */
  timeoutMs: number
  /** How stored objects look to cloud code (synced classes in Moralis v1's shape). */
  shape: ParseShape
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type CloudRequest = Record<string, any>

/** How long a user's object is remembered for the requests of their writes. */
const USER_MEMORY_MS = 2_000

export class CloudTriggers implements ObjectHooks {
  readonly #users = new Map<string, { at: number; user: Promise<WireObject> }>()

  constructor(
    private readonly Parse: ParseSdk,
    private readonly registry: CloudRegistry,
    private readonly deps: CloudDeps,
  ) {}

  handles(kind: HookKind, className: string): boolean {
    return this.registry.has(kind, className)
  }

  context(): HookContext {
    return { ...currentScope()?.context }
  }

  async beforeSave(
    draft: SaveDraft,
    original: WireObject | null,
    actor: HookActor,
    context: HookContext,
  ) {
    const trigger = this.registry.trigger('beforeSave', draft.className)!
    const object = draftObject(this.Parse, draft, original)
    const request = await this.requestOf(actor, {
      triggerName: 'beforeSave',
      object,
      original: original ? sdkObject(this.Parse, original) : undefined,
      context,
    })
    await this.run(trigger, request, 'object')
    const saved = savedFields(object, draft.acl)
    // Relation fields hold a marker the SDK does not give back for a new object.
    for (const [key, value] of Object.entries(draft.data))
      if (isRelation(value) && !(key in saved.data)) saved.data[key] = value
    return saved
  }

  async afterSave(
    object: WireObject,
    original: WireObject | null,
    actor: HookActor,
    context: HookContext,
  ) {
    const trigger = this.registry.trigger('afterSave', object.className)!
    await this.quietly(trigger, () =>
      this.requestOf(actor, {
        triggerName: 'afterSave',
        object: sdkObject(this.Parse, object, this.deps.shape),
        original: original ? sdkObject(this.Parse, original, this.deps.shape) : undefined,
        context,
      }),
    )
  }

  async beforeDelete(object: WireObject, actor: HookActor, context: HookContext) {
    const trigger = this.registry.trigger('beforeDelete', object.className)!
    const request = await this.requestOf(actor, {
      triggerName: 'beforeDelete',
      object: sdkObject(this.Parse, object, this.deps.shape),
      context,
    })
    await this.run(trigger, request, 'object')
  }

  async afterDelete(object: WireObject, actor: HookActor, context: HookContext) {
    const trigger = this.registry.trigger('afterDelete', object.className)!
    await this.quietly(trigger, () =>
      this.requestOf(actor, {
        triggerName: 'afterDelete',
        object: sdkObject(this.Parse, object, this.deps.shape),
        context,
      }),
    )
  }

  async beforeFind(
    className: string,
    draft: FindDraft,
    actor: HookActor,
    isGet: boolean,
  ): Promise<FindDraft> {
    const trigger = this.registry.trigger('beforeFind', className)!
    const query = this.Parse.Query.fromJSON(className, {
      where: draft.where,
      limit: draft.limit,
      skip: draft.skip,
      ...(draft.order ? { order: draft.order } : {}),
    })
    const request = await this.requestOf(actor, {
      triggerName: 'beforeFind',
      query,
      count: false,
      isGet,
    })
    const answer = await this.run(trigger, request, 'params')
    const changed = answer instanceof this.Parse.Query ? answer : request.query
    const json = changed.toJSON() as {
      where?: Record<string, unknown>
      order?: string
      limit?: number
      skip?: number
    }
    return {
      where: json.where ?? {},
      order: json.order,
      limit: json.limit ?? draft.limit,
      skip: json.skip ?? 0,
    }
  }

  async afterFind(
    className: string,
    found: WireObject[],
    actor: HookActor,
    isGet: boolean,
  ): Promise<WireObject[]> {
    const trigger = this.registry.trigger('afterFind', className)!
    const request = await this.requestOf(actor, {
      triggerName: 'afterFind',
      objects: found.map((object) => sdkObject(this.Parse, object)),
      isGet,
    })
    const answer = await this.run(trigger, request, 'params')
    const objects: unknown[] = Array.isArray(answer) ? answer : request.objects
    const byId = new Map(found.map((object) => [object.objectId, object]))
    return objects
      .filter((object) => object instanceof this.Parse.Object)
      .map((object) => wireOf(object, byId.get((object as { id?: string }).id ?? '')))
  }

  /** `Parse.Cloud.beforeLogin`: may refuse a sign-in (throws). */
  async beforeLogin(user: { id: string }): Promise<void> {
    const trigger = this.registry.trigger('beforeLogin', '_User')
    if (!trigger) return
    const request = await this.requestOf(undefined, {
      triggerName: 'beforeLogin',
      // Read afresh: a field set a moment ago (a ban) must count.
      object: sdkObject(this.Parse, await this.#readUser(user.id)),
    })
    await this.run(trigger, request, 'object')
  }

  /** `Parse.Cloud.afterLogout`: told after a session ended on the caller's request. */
  async afterLogout(user: { id: string }, sessionId: string): Promise<void> {
    const trigger = this.registry.trigger('afterLogout', '_User')
    if (!trigger) return
    await this.quietly(trigger, async () => {
      const session = this.Parse.Object.fromJSON(
        {
          className: '_Session',
          objectId: sessionId,
          user: { __type: 'Pointer', className: '_User', objectId: user.id },
        },
        true,
      )
      return this.requestOf(undefined, { triggerName: 'afterLogout', object: session })
    })
  }

  /**
   * A handler's request: `fields` plus what Parse puts in every request (who, from where, a
   * logger). `request.user` is built when the handler first reads it: most triggers never do,
   * and making the SDK's user object is most of what an empty trigger costs a write.
   */
  async requestOf(actor: HookActor, fields: CloudRequest): Promise<CloudRequest> {
    const scope = currentScope()
    const stored = typeof actor === 'string' ? await this.storedUser(actor) : undefined
    let user: unknown
    const request: CloudRequest = {
      master: actor === ANY_OWNER,
      installationId: scope?.installationId,
      ip: scope?.ip ?? '127.0.0.1',
      headers: scope?.headers ?? {},
      log: this.deps.logs.logger(),
      ...fields,
    }
    return Object.defineProperty(request, 'user', {
      enumerable: true,
      configurable: true,
      get: () => {
        if (stored && user === undefined) user = this.sdkUser(stored, scope?.sessionToken)
        return user
      },
      set: (value: unknown) => {
        user = value
      },
    })
  }

  /** Runs a handler after its validator, within its deadline. */
  async run(
    trigger: Registered,
    request: CloudRequest,
    fields: 'params' | 'object',
  ): Promise<unknown> {
    return runCloud({ label: trigger.name, timeoutMs: this.deps.timeoutMs }, async () => {
      await validate(trigger.validator, request, {
        fields,
        name: trigger.name,
        counter: this.deps.counter,
        roleNames: (userId) => this.roleNames(userId),
      })
      return trigger.handler(request)
    })
  }

  /** An `after` trigger: what it throws is logged, never answered (as in Parse Server). */
  async quietly(trigger: Registered, request: () => Promise<CloudRequest>): Promise<void> {
    try {
      await this.run(trigger, await request(), 'object')
    } catch (error) {
      this.deps.logs
        .logger()
        .warn(`${trigger.name} failed: ${(error as Error).message ?? String(error)}`)
    }
  }

  async roleNames(userId: string): Promise<string[]> {
    const list = await this.deps.roles.listOf(userId)
    return list.filter((entry) => entry.startsWith('role:')).map((entry) => entry.slice(5))
  }

  /** A user's `_User` object (else what Portico knows of them), remembered a moment. */
  storedUser(id: string): Promise<WireObject> {
    const now = Date.now()
    let remembered = this.#users.get(id)
    if (!remembered || now - remembered.at > USER_MEMORY_MS) {
      if (this.#users.size > 10_000) this.#users.clear()
      remembered = { at: now, user: this.#readUser(id) }
      this.#users.set(id, remembered)
      remembered.user.catch(() => this.#users.delete(id))
    }
    return remembered.user
  }

  /** A stored user as cloud code's SDK object, holding the caller's session token if any. */
  sdkUser(stored: WireObject, token?: string): unknown {
    const user = sdkObject(this.Parse, stored)
    const sessionToken = clientToken(token)
    if (sessionToken) user._finishFetch({ sessionToken })
    return user
  }

  async #readUser(id: string): Promise<WireObject> {
    const object = await this.deps.objects().readAsServer({ className: '_User', objectId: id })
    if (object) return object
    const row = await this.deps.users.find(id)
    const address = row?.address?.toLowerCase()
    const at = (row?.firstSignInAt ?? new Date()).toISOString()
    return {
      objectId: id,
      className: '_User',
      owner: id,
      acl: {},
      publicRead: false,
      createdAt: at,
      updatedAt: at,
      data: address ? { username: address, ethAddress: address, accounts: [address] } : {},
    }
  }
}
