import { Component, type ErrorInfo, type ReactNode } from 'react'

interface State {
  error: unknown
}

/**
 * A page that throws (or whose code fails to load) shows a friendly message with a way back
 * instead of a blank screen. Keyed by location in the wrapper, so navigating
 * elsewhere clears it.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error('Unknown error') }
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Page failed to render', error, info.componentStack)
  }

  override render() {
    if (!this.state.error) return this.props.children
    return (
      <section className="page-error" role="alert">
        <h1>Something went wrong</h1>
        <p>This page could not be shown. You can try again, or go back to the home page.</p>
        <p className="actions">
          <button type="button" onClick={() => this.setState({ error: null })}>
            Try again
          </button>
          {/* A full page load, so a failed code download is retried from scratch. */}
          <a href="/">Back to the home page</a>
        </p>
      </section>
    )
  }
}
