// Every PostgreSQL advisory lock this server takes, in one place so that no number serves two
// purposes. A lock on one number is taken with `pg_advisory_lock(n)`; the others are a space
// and a key, `pg_advisory_lock(space, hashtext(key))`, which PostgreSQL keeps apart from the
// one-number locks (pg_locks: `classid` is the space, `objid` the key, `objsubid` 2).

export const advisoryLocks = {
  /** Migrations: one process migrates at a time (a session lock while it migrates). */
  migrations: 7403,
  /**
   * A process's registration among the processes on the database, keyed on its id: held on its
   * lock connection for as long as it runs, so it stops counting the moment its connections close.
   */
  processes: 7404,
  /** Leadership of one named task (`Cluster.lead`), keyed on the task's name. */
  leadership: 7405,
  /** Joining the processes: one process at a time checks its settings against theirs. */
  joining: 7406,
} as const
