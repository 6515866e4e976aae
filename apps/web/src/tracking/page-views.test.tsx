// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { PageViews } from './page-views.tsx'
import type { Tracker } from './tracker.ts'

afterEach(cleanup)

function recordingTracker() {
  const tracked: [string, Record<string, unknown> | undefined][] = []
  const tracker: Tracker = {
    track: (event, options) => void tracked.push([event, options]),
    flush: async () => undefined,
  }
  return { tracker, tracked }
}

describe('PageViews', () => {
  it('tracks one page view on start and one per route change, path only', () => {
    const { tracker, tracked } = recordingTracker()
    const location = memoryLocation({ path: '/' })
    render(
      <StrictMode>
        <Router hook={location.hook}>
          <PageViews tracker={tracker} />
        </Router>
      </StrictMode>,
    )
    act(() => location.navigate('/analytics?token=secret#x'))
    act(() => location.navigate('/analytics?token=secret#x'))
    act(() => location.navigate('/account'))
    expect(tracked).toEqual([
      ['page_view', { path: '/' }],
      ['page_view', { path: '/analytics' }],
      ['page_view', { path: '/account' }],
    ])
  })

  it("does not count the console's pages as site traffic", () => {
    const { tracker, tracked } = recordingTracker()
    const location = memoryLocation({ path: '/admin' })
    render(
      <Router hook={location.hook}>
        <PageViews tracker={tracker} />
      </Router>,
    )
    act(() => location.navigate('/admin/objects'))
    act(() => location.navigate('/'))
    act(() => location.navigate('/administration'))
    act(() => location.navigate('/admin/users'))
    expect(tracked).toEqual([
      ['page_view', { path: '/' }],
      ['page_view', { path: '/administration' }],
    ])
  })
})
