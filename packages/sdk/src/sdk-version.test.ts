import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { sdkVersion } from './sdk-version.ts'

describe('sdkVersion', () => {
  it('is the version in package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    expect(sdkVersion).toBe(pkg.version)
  })
})
