import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { DataDirLockedError, lockDataDir } from './lock.ts'

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'portico-lock-'))

describe('data directory lock', () => {
  it('refuses a second server while the first one lives, and names it', () => {
    const dir = tempDir()
    // pid 1 is always alive: it stands for another server holding the lock.
    fs.writeFileSync(path.join(dir, 'portico.lock'), '1')
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError)
    expect(() => lockDataDir(dir)).toThrow(/pid 1\) is using the data directory/)
  })

  it('takes over a lock left by a process that is gone, and releases it', () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, 'portico.lock'), '999999999')
    const release = lockDataDir(dir)
    expect(fs.readFileSync(path.join(dir, 'portico.lock'), 'utf8')).toBe(String(process.pid))
    release()
    expect(fs.existsSync(path.join(dir, 'portico.lock'))).toBe(false)
  })
})
