import type { CompatCall, CompatServices } from '../compat/call.ts'
import { toParseObject } from '../objects/parse-shape.ts'
import { syncedView } from '../compat/synced-classes.ts'
import type { CompatRoutes } from '../compat/routes.ts'
import type { WindowCounter } from '../db/cluster/cluster.ts'
import { ANY_OWNER } from '../objects/access.ts'
import type { ObjectStore } from '../objects/object-store.ts'
import type { ViewerRoles } from '../objects/viewer-roles.ts'
import { installCloudApi, moralisOf } from './api.ts'
import { CloudTriggers } from './cloud.ts'
import { inProcessController } from './in-process.ts'
import { CloudJobs } from './jobs.ts'
import { cloudFiles, loadCloudFile } from './load.ts'
import { CloudLogs } from './logs.ts'
import { loadParseSdk, type ParseSdk } from './parse-sdk.ts'
import { CloudRegistry } from './registry.ts'

// The site's cloud code (CLOUD_CODE): a Parse or Moralis v1 app's `cloud/` folder, run as it
// is. Loaded once at start with the globals `Parse` and `Moralis`; its triggers become the
// object store's hooks, its functions answer `functions/<name>`, its jobs run from the console
// or the mount's `jobs/<name>`.

export interface CloudCodeOptions {
  /** The file or folder to load; undefined for none (functions and jobs are then empty). */
  path: string | undefined
  /** What loading and the triggers use. */
  services: Omit<CompatServices, 'cloud'>
  /**
   * The server's services with this cloud code in them, and the mount's routes, which its SDK
   * calls: both exist once cloud code has loaded, and are asked for at each call.
   */
  server: () => CompatServices
  routes: () => CompatRoutes
  roles: ViewerRoles
  counter: WindowCounter
  timeoutMs: number
}

export interface CloudCode {
  readonly registry: CloudRegistry
  readonly triggers: CloudTriggers
  readonly jobs: CloudJobs
  readonly logs: CloudLogs
  /** Whether a function of this name is defined. */
  hasFunction(name: string): boolean
  /** Runs function `name` for `call`; its answer as Parse encodes it (undefined stays undefined). */
  runFunction(call: CompatCall, name: string): Promise<unknown>
  close(): Promise<void>
}

export async function openCloudCode(options: CloudCodeOptions): Promise<CloudCode> {
  const { services } = options
  const registry = new CloudRegistry()
  const logs = new CloudLogs(services.log)
  const objects = (): ObjectStore => services.objects
  const Parse: ParseSdk = loadParseSdk({
    appId: services.config.app.appId,
    serverUrl: `http://127.0.0.1${services.config.compat.mount ?? '/server'}`,
    controller: inProcessController({
      services: options.server,
      routes: options.routes,
      log: services.log,
      sdk: () => Parse,
    }),
  })
  installCloudApi(Parse, registry, logs)
  const triggers = new CloudTriggers(Parse, registry, {
    users: services.users,
    objects,
    roles: options.roles,
    counter: options.counter,
    logs,
    timeoutMs: options.timeoutMs,
    shape: (object) => {
      const fields = toParseObject(object)
      return syncedView(services, object.className)?.toParse(fields) ?? fields
    },
  })
  const jobs = new CloudJobs(registry, objects, logs)

  if (options.path) {
    keepRunningOnStrayRejections(services.log)
    await services.masterOwner.ensure()
    const globals = globalThis as Record<string, unknown>
    globals.Parse = Parse
    globals.Moralis = moralisOf(Parse, logs, (name, params) =>
      services.web3api.answer(name, params, undefined),
    )
    for (const file of await cloudFiles(options.path)) {
      try {
        await loadCloudFile(file)
      } catch (error) {
        throw new Error(
          `Loading cloud code ${file} failed: ${(error as Error).message ?? String(error)}`,
          {
            cause: error,
          },
        )
      }
    }
  }

  return {
    registry,
    triggers,
    jobs,
    logs,
    hasFunction: (name) => registry.functions.has(name),
    async runFunction(call, name) {
      const fn = registry.functions.get(name)!
      const current = call.master ? null : await call.session()
      const request = await triggers.requestOf(call.master ? ANY_OWNER : current?.user.id, {
        params: call.params,
        functionName: name,
        context: {},
      })
      const result = await triggers.run(fn, request, 'params')
      return result === undefined ? undefined : Parse._encode(result, false, false)
    },
    close: () => jobs.idle(),
  }
}

let guarded = false

/**
 * Cloud code is the site's JavaScript: a promise it starts and forgets may reject with nobody
 * waiting, which would end the whole process. Such a rejection is logged instead.
 */
function keepRunningOnStrayRejections(log: CompatServices['log']): void {
  if (guarded) return
  guarded = true
  process.on('unhandledRejection', (reason) =>
    log.error({ err: reason }, 'a promise rejected with nobody waiting for it (cloud code?)'),
  )
}
