// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { createSafeStorage } from '../storage/safe-storage.ts'
import { DISMISSED_KEY } from './version.ts'
import { VersionNotice } from './version-notice.tsx'

afterEach(cleanup)

const now = (run: () => void) => run()
const memoryStorage = () => createSafeStorage(() => null)

describe('VersionNotice', () => {
  it('shows when the SDK is older, and remembers a dismissal for that release', async () => {
    const storage = memoryStorage()
    const load = async (dismissed: string | null) =>
      dismissed === '1.6.0'
        ? null
        : { kind: 'outdated' as const, current: '1.5.9', latest: '1.6.0' }
    render(<VersionNotice check={load} storage={storage} schedule={now} />)
    expect((await screen.findByRole('status')).textContent).toContain('A newer Portico SDK (1.6.0)')
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByRole('status')).toBeNull()
    expect(storage.getItem(DISMISSED_KEY)).toBe('1.6.0')

    cleanup()
    render(<VersionNotice check={load} storage={storage} schedule={now} />)
    await Promise.resolve()
    await Promise.resolve()
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('shows nothing when the SDK is current or the check fails', async () => {
    let resolved = false
    const load = async () => {
      resolved = true
      return null
    }
    render(<VersionNotice check={load} storage={memoryStorage()} schedule={now} />)
    const failing = async () => {
      throw new Error('offline')
    }
    render(<VersionNotice check={failing} storage={memoryStorage()} schedule={now} />)
    await Promise.resolve()
    expect(resolved).toBe(true)
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('cannot dismiss the notice of an unsupported SDK', async () => {
    const load = async () => ({ kind: 'unsupported' as const, current: '1.5.9', latest: '' })
    render(<VersionNotice check={load} storage={memoryStorage()} schedule={now} />)
    expect((await screen.findByRole('status')).textContent).toContain(
      'older than the server supports',
    )
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull()
  })
})
