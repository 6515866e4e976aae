// The parts of s3rver (an S3-compatible server for tests) the tests use; it ships no types.
declare module 's3rver' {
  import type { Server } from 'node:http'
  export default class S3rver {
    constructor(options: {
      address?: string
      port?: number
      silent?: boolean
      directory: string
      configureBuckets?: { name: string; configs: unknown[] }[]
    })
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
    httpServer: Server
  }
}
