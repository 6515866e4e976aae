import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// The names each entry point exports: a change to the public API shows up as a diff of the
// snapshot next to this file, to be reviewed like any other change.

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, string | { source: string }>
}
const entries = Object.entries(pkg.exports).filter(
  (entry): entry is [string, { source: string }] => typeof entry[1] === 'object',
)

describe('public surface of @portico/sdk', () => {
  it.each(entries)('%s', async (_name, { source }) => {
    const module = (await import(new URL(`../${source}`, import.meta.url).href)) as object
    expect(Object.keys(module).sort()).toMatchSnapshot()
  })

  it('every entry point is built to dist with declarations', () => {
    for (const [, target] of entries) {
      expect(target).toMatchObject({
        types: target.source.replace('./src/', './dist/').replace(/\.ts$/, '.d.ts'),
        default: target.source.replace('./src/', './dist/').replace(/\.ts$/, '.js'),
      })
    }
  })
})
