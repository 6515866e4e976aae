/** Shown while a lazily loaded page's code downloads. */
export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      Loading page…
    </div>
  )
}
