import { describe, expect, it } from 'vitest'
import {
  AVATAR_MAX_BYTES,
  localDateString,
  validateAvatar,
  validateBirthday,
  validateDisplayName,
} from './validate.ts'

const today = new Date(2026, 10, 21, 12, 0) // 21 Nov 2026, local time

describe('validateBirthday', () => {
  it.each([
    ['', null],
    ['1990-05-17', null],
    ['2026-11-21', null],
    ['1900-01-01', null],
    ['2000-02-29', null],
  ])('accepts %j', (value, expected) => {
    expect(validateBirthday(value, today)).toBe(expected)
  })

  it.each([
    ['2026-11-22', 'future'],
    ['2999-01-01', 'future'],
    ['1899-12-31', 'after 1 January 1900'],
    ['2023-02-29', 'does not exist'],
    ['2024-13-01', 'does not exist'],
    ['17/05/1990', 'year-month-day'],
    ['1990-5-17', 'year-month-day'],
  ])('refuses %j', (value, message) => {
    expect(validateBirthday(value, today)).toContain(message)
  })

  it('refuses what the browser could not read as a date', () => {
    expect(validateBirthday('', today, true)).toContain('complete, real date')
  })
})

describe('validateDisplayName', () => {
  it('accepts up to 50 characters, counting emoji as one', () => {
    expect(validateDisplayName('')).toBeNull()
    expect(validateDisplayName('😀'.repeat(50))).toBeNull()
    expect(validateDisplayName('  Ada  ')).toBeNull()
  })

  it('refuses longer names and control characters', () => {
    expect(validateDisplayName('x'.repeat(51))).toContain('at most 50')
    expect(validateDisplayName('a\u0007b')).toContain('control characters')
  })
})

describe('validateAvatar', () => {
  it('accepts an image under the limit', () => {
    expect(validateAvatar({ size: AVATAR_MAX_BYTES, type: 'image/png' })).toBeNull()
  })

  it('refuses other types, empty and over-limit files with the sizes', () => {
    expect(validateAvatar({ size: 10, type: 'image/svg+xml' })).toContain('PNG, JPEG')
    expect(validateAvatar({ size: 10, type: 'application/pdf' })).toContain('PNG, JPEG')
    expect(validateAvatar({ size: 0, type: 'image/png' })).toContain('empty')
    expect(validateAvatar({ size: 3 * 1024 * 1024, type: 'image/jpeg' })).toBe(
      'The image is 3.0 MB; the limit is 2.0 MB.',
    )
    expect(validateAvatar({ size: AVATAR_MAX_BYTES + 1, type: 'image/png' })).toBe(
      'The image is 2.1 MB; the limit is 2.0 MB.',
    )
  })
})

describe('localDateString', () => {
  it('uses the local calendar day', () => {
    expect(localDateString(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05')
  })
})
