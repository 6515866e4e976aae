import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { databaseKinds } from './helpers.ts'
import { kindsFor, oneDatabase } from './one-database.ts'

const serverFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const both = ['pglite', 'postgres'] as const

describe('the files that run on one database', () => {
  it('are test files that exist and ask databaseKinds(), each with its reason', () => {
    expect(Object.keys(oneDatabase).length).toBeGreaterThan(0)
    for (const [file, reason] of Object.entries(oneDatabase)) {
      const full = path.join(serverFolder, file)
      expect(fs.existsSync(full), file).toBe(true)
      expect(fs.readFileSync(full, 'utf8'), file).toContain('databaseKinds()')
      expect(reason.length, file).toBeGreaterThan(20)
    }
  })

  it('run on PostgreSQL when the run has it, else on PGlite; every other file on each kind', () => {
    const listed = path.join(serverFolder, Object.keys(oneDatabase)[0]!)
    expect(kindsFor(listed, [...both])).toEqual(['postgres'])
    expect(kindsFor(listed, ['pglite'])).toEqual(['pglite'])
    const other = path.join(serverFolder, 'src/objects/query.test.ts')
    expect(kindsFor(other, [...both])).toEqual([...both])
    expect(kindsFor(undefined, [...both])).toEqual([...both])
    // This file is not listed: it gets every kind the run has.
    expect(databaseKinds()).toEqual(process.env.PORTICO_TEST_DATABASE_URL ? [...both] : ['pglite'])
  })
})
