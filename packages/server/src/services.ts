import type { FastifyBaseLogger } from 'fastify'
import { createChainClients } from './auth/signature.ts'
import { Sessions } from './auth/sessions.ts'
import { signedOutWriteLimit } from './objects/signed-out-writes.ts'
import { SignIns } from './auth/sign-in.ts'
import { People } from './admin/people.ts'
import { FileRecords } from './files/records.ts'
import { ReferenceCheck } from './admin/references.ts'
import { Roles } from './roles/service.ts'
import { RoleMembers } from './roles/members.ts'
import { AclUsers } from './admin/acl-users.ts'
import { Imports } from './import/imports.ts'
import { DeclaredFields } from './admin/declared-fields.ts'
import { Users } from './auth/users.ts'
import { UserHoldings } from './auth/user-holdings.ts'
import { Events } from './events/service.ts'
import { IdempotencyRecords } from './idempotency/store.ts'
import { SignInNonces } from './auth/nonces.ts'
import { LinkedAddresses } from './auth/addresses.ts'
import { ConfigError, type ServerConfig } from './config/server.ts'
import { createMailer, type Mailer } from './mail/mailer.ts'
import {
  databaseHealth,
  type Database,
  type DatabaseHandle,
  type DatabaseHealth,
  type DatabaseKind,
} from './db/client.ts'
import {
  DifferentSettingsError,
  openCluster,
  type Cluster,
  type SocketSlots,
  type WindowCounter,
} from './db/cluster/cluster.ts'
import { openFileStore, type FileStore } from './files/store.ts'
import { LiveHub } from './live/hub.ts'
import { openChangeFeed } from './objects/changes.ts'
import { FieldIndexes } from './objects/field-indexes.ts'
import { ClassPermissionsCache } from './objects/class-permissions.ts'
import { logOpenClasses, OpenClassReads } from './compat/open-classes.ts'
import { RelationHolders } from './compat/relation-queries.ts'
import { MasterOwner } from './compat/master-key.ts'
import { SchemaReads } from './compat/schema-reads.ts'
import { PasswordUsers } from './compat/password-logins.ts'
import { AuditLog } from './audit/log.ts'
import { ViewerRoles } from './objects/viewer-roles.ts'
import type { ObjectStore } from './objects/object-store.ts'
import { openObjectStore } from './objects/store.ts'
import { ApiKeyVerifier } from './rpc/api-keys.ts'
import { sharedSettings } from './shared-settings.ts'
import { loadSiteModule } from './site-module.ts'
import type { SiteFunctions } from './compat/functions.ts'
import type { Sync } from './sync/definition.ts'
import { siteSyncs } from './known-syncs.ts'
import { startSyncs } from './sync/runner.ts'
import { Watches } from './sync/watches.ts'
import { SyncProgress } from './sync/store.ts'
import { addressClassRules, bothRules } from './addresses/classes.ts'
import { AddressReads } from './addresses/reads.ts'
import { AddressIndex, AddressRefusal } from './addresses/service.ts'
import type { SyncStatus } from './sync/syncer.ts'
import { openCloudCode, type CloudCode } from './cloud/code.ts'
import { compatRoutes, type CompatRoutes } from './compat/routes.ts'
import { SwitchableHooks } from './objects/hooks.ts'
import { Web3Api } from './web3api/service.ts'
import { WalletCollections } from './web3api/collections.ts'
import { IndexAnswers } from './web3api/index-answers.ts'

// Every long-lived service of one server, built once. Domain code takes the services it needs
// as arguments; routes receive this object as their plugin option. Nothing here knows Fastify.

/** The database as the services were given it. */
export interface ServicesDatabase {
  db: Database
  kind: DatabaseKind
  pool?: DatabaseHandle['pool']
  /** PostgreSQL's connection URL: live queries listen for other processes' changes on it. */
  url?: string | undefined
  /** Connections for shared state that may lose its last moments in a crash (see db/client.ts). */
  relaxed?: Database | undefined
}

export interface Services {
  config: ServerConfig
  database: ServicesDatabase
  /** The database's liveness and migrations, for the health routes. */
  databaseHealth: DatabaseHealth
  log: FastifyBaseLogger
  /** What this process shares with the others on the database (one process on PGlite). */
  cluster: Cluster
  /** This process's id among the processes on the database (`server_processes`). */
  processId: string
  /** The counters behind every rate limit (shared through the database on PostgreSQL). */
  windowCounter: WindowCounter
  /** Live sockets per client address (summed over live processes on PostgreSQL). */
  socketSlots: SocketSlots
  /** Indexes on the document fields each class is queried on. */
  fieldIndexes: FieldIndexes
  /** The objects: the only way to their table, queries and access rule. */
  objects: ObjectStore
  /** The console's audit log (entries written outside a change's own transaction). */
  audit: AuditLog
  /** The master key's user row, which owns what the master key makes. */
  masterOwner: MasterOwner
  /** The records behind `Idempotency-Key` and `X-Parse-Request-Id`. */
  idempotency: IdempotencyRecords
  /** Tracked events: their writers and statistics. */
  events: Events
  /** The Parse-compatible API's password users. */
  passwordUsers: PasswordUsers
  /** What classes' objects hold beyond their schemas (the mount's schema answers). */
  schemaReads: SchemaReads
  /** Which objects' relations hold given members (queries naming a relation field). */
  relationHolders: RelationHolders
  /** What the listing of the classes open to signed-out writes reads. */
  openClassReads: OpenClassReads
  /** The users' own rows. */
  users: Users
  /** Everything a user has, read before they are deleted. */
  userHoldings: UserHoldings
  /** The console's imports of Parse export files. */
  imports: Imports
  /** The columns the console declares for classes. */
  declaredFields: DeclaredFields
  /** The roles (`_Role` objects with their members). */
  roles: Roles
  /** The console's translations between wallet addresses and user ids. */
  aclUsers: AclUsers
  /** The stored files' rows. */
  fileRecords: FileRecords
  /** The console's check of the pointers and ACL entries an edit names. */
  references: ReferenceCheck
  /** The console's people: users, their sessions, totals and API keys. */
  people: People
  /** Sign-in nonces. */
  nonces: SignInNonces
  /** The wallets linked to users. */
  linkedAddresses: LinkedAddresses
  /** Uploaded files, wherever their bytes are kept. */
  files: FileStore
  /** Session lookups and revocations. */
  sessions: Sessions
  /** Completes verified wallet sign-ins (grouped into shared commits under load). */
  signIns: SignIns
  /** Checks gateway API keys (remembering valid ones for 30 s). */
  apiKeys: ApiKeyVerifier
  /** Live-query subscriptions of this process's sockets. */
  liveHub: LiveHub
  /** Clients of each chain's upstream nodes, for on-chain signature checks. */
  chainClients: ReturnType<typeof createChainClients>
  /** Sends password resets and email verifications; undefined without SMTP_URL. */
  mailer: Mailer | undefined
  /** The site module's server functions. */
  functions: SiteFunctions
  /** The site's cloud code (CLOUD_CODE): its triggers, functions, jobs and log. */
  cloud: CloudCode
  /** The compatibility mount's route table (cloud code's SDK calls it in-process). */
  compatRoutes: CompatRoutes
  /**
   * The contract-event syncs whose classes the mount shows in the v1 shape: the site's, the
   * watches, and stopped watches whose rows stay (this array changes in place).
   */
  syncs: Sync[]
  /** Contract-event syncs made at run time (Moralis v1's `watchContractEvent`). */
  watches: Watches
  /** The syncs' stored progress. */
  syncProgress: SyncProgress
  /** Moralis v1's Web3 API, answered from the chains' nodes. */
  web3api: Web3Api
  /** The address index (ADDRESS_INDEX_CHAINS): which addresses it follows, and its progress. */
  addressIndex: AddressIndex
  /** What the address index answers about one address. */
  addressReads: AddressReads
  /** Their progress, as this process sees it (`writer`: this process runs it). */
  syncStatus(): (SyncStatus & { writer: boolean })[]
  /** Starts the background work (syncs) once the server is ready to serve. */
  start(): void
  /** Stops everything this object opened, in reverse order. */
  close(): Promise<void>
}

/**
 * Builds every long-lived service of one server process on `database`.
 *
 * @example
 * const services = await openServices(config, await openDatabase({ kind: 'pglite' }), log)
 */
export async function openServices(
  config: ServerConfig,
  database: ServicesDatabase,
  log: FastifyBaseLogger,
): Promise<Services> {
  const closers: (() => Promise<void> | void)[] = []
  const close = async () => {
    for (const closer of closers.reverse()) await closer()
  }
  try {
    // Several processes on one PostgreSQL share limits, sessions and visitors: their settings
    // must match.
    const cluster = await openCluster(
      { ...database, url: database.url ?? config.databaseUrl },
      {
        shared: sharedSettings(config),
        liveMaxSocketsPerAddress: config.liveMaxSocketsPerAddress,
      },
      log,
    ).catch((error: unknown) => {
      throw error instanceof DifferentSettingsError ? new ConfigError([error.message]) : error
    })
    closers.push(() => cluster.close())
    const files = await openFileStore(database.db, config.files, config.fileMaxBytes, log)
    closers.push(() => files.close())
    const fieldIndexes = new FieldIndexes(database.db, cluster, (error, index) =>
      log.warn({ err: error, ...index }, 'building a field index failed'),
    )
    await fieldIndexes.load()
    closers.push(() => fieldIndexes.close())

    const site = await loadSiteModule(config.functionsModule)
    const syncs = siteSyncs(config, site.syncs)

    // The store publishes on the change feed, and the feed reads objects through the store (a
    // change too big for one notification travels as its keys): each takes the other's function.
    // Cloud code loads once the services exist (its SDK calls them): the store holds a switch
    // that is pointed at its triggers then.
    const hooks = new SwitchableHooks()
    const roles = new ViewerRoles(database.db, cluster)
    const permissions = new ClassPermissionsCache(database.db, cluster)
    const objects = openObjectStore({
      db: database.db,
      fieldIndexes,
      publish: (changes) => feed.publish(changes),
      listens: (className) => feed.listens(className),
      answerMaxBytes: config.answerMaxBytes,
      roles,
      permissions,
      hooks,
      // Synced classes are written by their sync alone; their wide integers compare as numbers.
      // So are the address index's classes (Moralis v1's address-sync classes).
      classRules: bothRules(syncs.classRules, addressClassRules(config.addresses.chains.keys())),
      signedOutWrites: signedOutWriteLimit(
        cluster.windowCounter,
        config.app.signedOutWriteRateLimit,
      ),
    })
    // Every committed object change, from this process or any other.
    const feed = openChangeFeed(database.db, cluster, (keys) => objects.readAsServer(keys))
    closers.push(() => feed.close())
    const liveHub = new LiveHub(objects, feed, (error) =>
      log.error({ err: error }, 'live query dispatch failed'),
    )
    closers.push(() => liveHub.close())
    // Sessions are remembered for a moment per process; a revocation is told to the others, and
    // this process hears them before it serves a request.
    const sessions = new Sessions(database.db, cluster)
    // The syncs stop before the change feed and live queries they publish to.
    closers.push(() => syncs.stop())
    let addressIndex: AddressIndex
    try {
      addressIndex = new AddressIndex({
        db: database.db,
        objects,
        cluster,
        config: config.addresses,
        upstreams: config.rpc.upstreams,
        headUrls: config.sync.headUrls,
        log,
      })
    } catch (error) {
      throw error instanceof AddressRefusal ? new ConfigError([error.message]) : error
    }
    closers.push(() => addressIndex.stop())
    const watches = new Watches({
      db: database.db,
      cluster,
      syncs,
      upstreams: config.rpc.upstreams,
      localChainId: config.sync.localChainId,
      log,
    })
    closers.push(() => watches.close())
    await Promise.all([feed.ready, sessions.ready, watches.ready, watches.reload()])
    const chainClients = createChainClients(config.rpc.upstreams)
    const mailer = createMailer(config.mail)
    if (mailer) closers.push(() => mailer.close())
    const web3api = new Web3Api(config, cluster.windowCounter, log)
    closers.push(() => web3api.close())
    const addressReads = new AddressReads(database.db)
    web3api.addressReads = new IndexAnswers(
      addressIndex,
      addressReads,
      web3api.metadata,
      new WalletCollections(database.db),
    )

    // Cloud code loads before the services object is made (the object holds it), and its SDK
    // calls the mount's routes, which hold it too: it is given both as functions, called only
    // once it has loaded (a call from a cloud file's top level is refused as a server error).
    const parts = {
      config,
      database,
      databaseHealth: databaseHealth(database.db),
      log,
      cluster,
      processId: cluster.processId,
      windowCounter: cluster.windowCounter,
      socketSlots: cluster.socketSlots,
      fieldIndexes,
      objects,
      audit: new AuditLog(database.db),
      masterOwner: new MasterOwner(database.db),
      idempotency: new IdempotencyRecords(database.db),
      events: new Events(database.db),
      passwordUsers: new PasswordUsers(database.db),
      schemaReads: new SchemaReads(database.db),
      relationHolders: new RelationHolders(database.db),
      openClassReads: new OpenClassReads(database.db),
      users: new Users(database.db),
      userHoldings: new UserHoldings(database.db),
      imports: new Imports(database.db, objects),
      declaredFields: new DeclaredFields(database.db),
      roles: new Roles(new RoleMembers(database.db), objects),
      aclUsers: new AclUsers(database.db),
      fileRecords: new FileRecords(database.db),
      references: new ReferenceCheck(database.db, objects),
      people: new People(database.db),
      nonces: new SignInNonces(database.db),
      linkedAddresses: new LinkedAddresses(database.db),
      files,
      sessions,
      signIns: new SignIns(database.db),
      apiKeys: new ApiKeyVerifier(database.db),
      liveHub,
      chainClients,
      mailer,
      functions: site.functions,
      syncs: syncs.shown,
      watches,
      syncProgress: new SyncProgress(database.db),
      web3api,
      addressIndex,
      addressReads,
    }
    const cloud = await openCloudCode({
      path: config.cloudCode,
      services: parts,
      server: () => services,
      routes: () => services.compatRoutes,
      roles,
      counter: cluster.windowCounter,
      timeoutMs: config.cloudTimeoutMs,
    })
    closers.push(() => cloud.close())
    for (const name of cloud.registry.functions.keys())
      if (site.functions.has(name))
        throw new ConfigError([
          `The function "${name}" is defined both in FUNCTIONS_MODULE and in CLOUD_CODE: keep one.`,
        ])
    if (config.cloudCode) {
      hooks.current = cloud.triggers
      parts.signIns.beforeLogin = (user) => cloud.triggers.beforeLogin(user)
    }
    const services: Services = {
      ...parts,
      cloud,
      compatRoutes: compatRoutes({
        mount: config.compat.mount ?? '/server',
        clientFor: chainClients,
        functions: site.functions,
        cloud,
      }),
      syncStatus: () => syncs.status(),
      start() {
        addressIndex.start()
        // Awaited on close: the listing reads the database.
        const logged = logOpenClasses(
          { openClassReads: parts.openClassReads, config, syncs: syncs.all },
          log,
        )
        closers.push(() => logged)
        syncs.start((list) =>
          startSyncs({
            db: database.db,
            objects,
            syncs: list,
            upstreams: config.rpc.upstreams,
            headUrls: config.sync.headUrls,
            log,
            cluster,
          }),
        )
      },
      close,
    }
    return services
  } catch (error) {
    await close()
    throw error
  }
}
