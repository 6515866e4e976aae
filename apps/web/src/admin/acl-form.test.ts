import { describe, expect, it } from 'vitest'
import { aclOfDraft, draftOf, newEntry, sameAcl, writersOf } from './acl-form.ts'

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

describe('the ACL form', () => {
  it('shows users by wallet address and gives back the same ACL', () => {
    const acl = {
      '*': { read: true },
      u1: { read: true, write: true },
      'role:Night Staff': { write: true },
      u2: { read: true },
    }
    const draft = draftOf(acl, { u1: ADDRESS })
    expect(draft.publicRead).toBe(true)
    expect(draft.publicWrite).toBe(false)
    expect(draft.entries.map(({ kind, who, read, write }) => [kind, who, read, write])).toEqual([
      ['user', ADDRESS, true, true],
      ['role', 'Night Staff', false, true],
      ['user', 'u2', true, false],
    ])
    const back = aclOfDraft(draft)
    expect(back).toEqual({
      acl: {
        '*': { read: true },
        [ADDRESS]: { read: true, write: true },
        'role:Night Staff': { write: true },
        u2: { read: true },
      },
    })
    // Without addresses, the very same ACL comes back.
    expect(sameAcl(acl, (aclOfDraft(draftOf(acl)) as { acl: typeof acl }).acl)).toBe(true)
  })

  it('names the first entry that is wrong', () => {
    const draft = (entries: Partial<ReturnType<typeof newEntry>>[]) => ({
      publicRead: false,
      publicWrite: false,
      entries: entries.map((e) => ({ ...newEntry('user'), ...e })),
    })
    const problem = (entries: Partial<ReturnType<typeof newEntry>>[]) =>
      (aclOfDraft(draft(entries)) as { problem?: string }).problem
    expect(problem([{ who: '' }])).toBe('Entry 1: say which user, or remove the entry.')
    expect(problem([{ who: 'u1' }, { who: '0x123' }])).toMatch(/^Entry 2: a user is a wallet/)
    expect(problem([{ kind: 'role', who: 'bad/role' }])).toMatch(/^Entry 1: a role name/)
    expect(problem([{ who: 'u1', read: false, write: false }])).toBe(
      'Entry 1 (u1): tick read, write or both, or remove the entry.',
    )
    expect(problem([{ who: ADDRESS }, { who: ADDRESS.toLowerCase() }])).toMatch(/listed twice/)
    expect(
      problem([
        { kind: 'role', who: 'role:Mods' },
        { kind: 'role', who: 'Mods' },
      ]),
    ).toMatch(/listed twice/)
    expect(problem(Array.from({ length: 129 }, (_, n) => ({ who: `u${n}` })))).toMatch(
      /at most 128/,
    )
    // Nobody at all is allowed: only the console (and the master key) then.
    expect(aclOfDraft(draft([]))).toEqual({ acl: {} })
    expect(aclOfDraft({ publicRead: false, publicWrite: true, entries: [] })).toEqual({
      acl: { '*': { write: true } },
    })
  })

  it('compares ACLs whatever their order, and says who may change', () => {
    expect(
      sameAcl({ a: { read: true }, b: { write: true } }, { b: { write: true }, a: { read: true } }),
    ).toBe(true)
    expect(sameAcl({ a: { read: true } }, { a: { read: true, write: true } })).toBe(false)
    expect(writersOf({ '*': { read: true } })).toBe('Only the console')
    expect(writersOf({ u1: { write: true }, 'role:Mods': { write: true } }, { u1: ADDRESS })).toBe(
      `${ADDRESS}, role:Mods`,
    )
    expect(writersOf({ '*': { write: true } })).toBe('Everyone')
  })
})
