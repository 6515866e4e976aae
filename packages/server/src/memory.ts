import v8 from 'node:v8'

// The server's memory while it writes fast (a contract sync's backfill): most of what it makes
// (logs read, rows decoded, statements) lives for one range, long enough to reach V8's old
// generation, which by default is let grow to up to four times its live objects before it is
// collected. Backfilling 100,000 events, the live heap stayed near 45 MB while the heap grew
// past 150 MB between collections. A growth factor of 1.3 collects it about every 15 MB, which
// costs little with so few live objects (marking runs beside the program).
//
// On the embedded database, V8 also recompiles the database's hottest WebAssembly functions
// with its optimising compiler, whose code and compilation memory stay with the process: a
// higher budget before a function is recompiled keeps that to the few functions that matter.
// Both are read by V8 as it goes (at each collection, at compilation), so they may be set
// once the process runs, before the embedded database is opened.
//
// The young generation (where every object starts) grows by default to two semi-spaces of
// 16 MB, all of it resident once used. Its largest size is read only as the process starts
// (`--max-semi-space-size`), which the server cannot set for itself; the factor by which it
// grows is read at each collection. A factor of 1 keeps it at its first size (two of 1 MB):
// the objects of a range outlive a young collection either way and are promoted.
//
// The collection settings wait until the server is ready: loading its modules and compiling its
// routes' schemas makes objects that mostly live on, and collecting them at 1.3 times the live
// heap and in a young generation of 1 MB through that cost about a tenth of the start's CPU
// (2.3-2.5 s of CPU against 2.6-3.0 s for a start on an existing data directory).

/** Before the embedded database is opened: how its WebAssembly is recompiled. */
export function keepDatabaseCodeLean(options: { embedded: boolean }): void {
  if (options.embedded) v8.setFlagsFromString('--wasm-tiering-budget=18000000')
}

/** Once the server is ready: how often its heap is collected. */
export function keepMemoryLow(): void {
  v8.setFlagsFromString('--heap-growing-percent=30')
  v8.setFlagsFromString('--semi-space-growth-factor=1')
}
