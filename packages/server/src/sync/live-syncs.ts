import type { ClassRules } from '../objects/class-rules.ts'
import type { Sync } from './definition.ts'
import type { SyncRunner } from './runner.ts'
import { syncedClassRules } from './synced-classes.ts'
import type { SyncStatus } from './syncer.ts'

// The syncs this process knows: those the site declared, then the watches made at run time
// (watches.ts), which come and go while the server runs. The list, the store's rules for their
// classes and the runner change together: a watched class is written by its sync alone and its
// wide integers compare as numbers from the moment the watch exists, on every surface. A
// stopped watch's class keeps its rows, which the mount still shows in the v1 shape (`shown`).

export class LiveSyncs {
  /** Every sync; this array is changed in place, so holders of it see watches come and go. */
  readonly all: Sync[]
  /** The store's rules for the synced classes: always those of the current list. */
  readonly classRules: ClassRules
  /**
   * The syncs whose classes the mount shows as v1 synced classes: every sync, then stopped
   * watches whose class no running sync fills (changed in place too).
   */
  readonly shown: Sync[]
  /** Stopped watches, by sync name. */
  readonly #stopped = new Map<string, Sync>()
  #rules: ClassRules
  #runner: SyncRunner | undefined

  constructor(declared: readonly Sync[]) {
    this.all = [...declared]
    this.shown = [...declared]
    this.#rules = syncedClassRules(this.all)
    this.classRules = {
      assertWritable: (className, writer) => this.#rules.assertWritable(className, writer),
      keptFields: (className) => this.#rules.keptFields(className),
      integerFields: (className) => this.#rules.integerFields(className),
    }
  }

  get(name: string): Sync | undefined {
    return this.all.find((sync) => sync.name === name)
  }

  /** Adds a sync and, once the runner started, runs it at once. */
  add(sync: Sync): void {
    if (this.get(sync.name)) return
    this.all.push(sync)
    this.#changed()
    this.#runner?.add(sync)
  }

  /** Shows a stopped watch's class in the v1 shape (its sync no longer runs). */
  keepShape(sync: Sync): void {
    this.#stopped.set(sync.name, sync)
    this.#changed()
  }

  /** Forgets a stopped watch's shape. */
  dropShape(name: string): void {
    if (this.#stopped.delete(name)) this.#changed()
  }

  /** Removes a sync; resolves once it stopped writing in this process. */
  async remove(name: string): Promise<void> {
    const index = this.all.findIndex((sync) => sync.name === name)
    if (index < 0) return
    this.all.splice(index, 1)
    this.#changed()
    await this.#runner?.remove(name)
  }

  /** Starts running the list (once), with the runner `start` makes. */
  start(start: (syncs: readonly Sync[]) => SyncRunner): void {
    this.#runner ??= start(this.all)
  }

  /** Every sync's progress as this process sees it (`writer`: this process runs it). */
  status(): (SyncStatus & { writer: boolean })[] {
    return this.#runner?.status() ?? []
  }

  #changed(): void {
    this.#rules = syncedClassRules(this.all)
    const running = new Set(this.all.map((sync) => sync.className))
    const stopped = [...this.#stopped.values()].filter((sync) => !running.has(sync.className))
    this.shown.splice(0, this.shown.length, ...this.all, ...stopped)
  }

  async stop(): Promise<void> {
    await this.#runner?.stop()
  }
}
