import { PGlite } from '@electric-sql/pglite'
const db = new PGlite('/tmp/pgl-x')
for (const s of ['shared_buffers','work_mem','maintenance_work_mem','wal_buffers','temp_buffers','fsync','synchronous_commit','full_page_writes','wal_level','max_wal_size','checkpoint_timeout'])
  console.log(s, (await db.query(`show ${s}`)).rows[0])
console.log((process.memoryUsage().rss/1e6).toFixed(0))
