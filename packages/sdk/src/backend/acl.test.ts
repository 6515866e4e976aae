import { describe, expect, it } from 'vitest'
import { aclOf, type AclAccess } from './acl.ts'

describe('aclOf', () => {
  it("builds Parse's ACL from users and roles with r, w or rw, and everyone's read and write", () => {
    expect(
      aclOf({
        publicRead: true,
        users: { u1: 'rw', u2: 'r' },
        roles: { Editors: 'w', 'Night Staff': 'rw' },
      }),
    ).toEqual({
      '*': { read: true },
      u1: { read: true, write: true },
      u2: { read: true },
      'role:Editors': { write: true },
      'role:Night Staff': { read: true, write: true },
    })
    expect(aclOf({ publicWrite: true })).toEqual({ '*': { write: true } })
    expect(aclOf({ publicRead: true, publicWrite: true })).toEqual({
      '*': { read: true, write: true },
    })
  })

  it('gives an empty ACL (only the master key and the console) for nothing, and refuses an unknown access', () => {
    expect(aclOf({})).toEqual({})
    expect(aclOf({ publicRead: false, users: {} })).toEqual({})
    expect(() => aclOf({ users: { u1: 'x' as AclAccess } })).toThrow(/"r", "w" or "rw"/)
  })
})
