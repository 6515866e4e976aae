import { describe, expect, it } from 'vitest'
import * as react from './index.ts'

// The names `@portico/react` exports: a change to the public API is a visible snapshot diff.
describe('public surface of @portico/react', () => {
  it('exports', () => {
    expect(Object.keys(react).sort()).toMatchSnapshot()
  })
})
