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
})
