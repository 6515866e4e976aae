import { lazy, Suspense, useLayoutEffect, useRef } from 'react'
import { useLocation } from 'wouter'
import { RevealScan } from '../reveal/reveal-provider.tsx'
import { ErrorBoundary } from './error-boundary.tsx'
import { Layout } from './layout.tsx'
import { PageLoading } from '../ui/page-loading.tsx'
import { PageParamsContext } from './page-params.ts'
import { matchPage, syncBodyClass, type PageDefinition } from './page-table.ts'

// Only the pages for signed-in users need the guard (and its sign-in prompt): it loads with the
// first of them, while the session is being restored, and stays out of the first load of Home.
const SignInRequired = lazy(() =>
  import('../wallet/sign-in-required.tsx').then((module) => ({ default: module.SignInRequired })),
)

/**
 * The one component the router knows: it resolves the current page from the page table,
 * sets the document title and the body class, and renders the page with a loading state and an
 * error boundary.
 */
export function AppWrapper({ pages }: { pages: readonly PageDefinition[] }) {
  const [location] = useLocation()
  const { page, params } = matchPage(pages, location)
  const mainRef = useRef<HTMLElement>(null)
  const previousLocation = useRef<string | null>(null)

  useLayoutEffect(() => {
    document.title = page.title
    syncBodyClass(document.body.classList, pages, page)
  }, [page, pages])

  useLayoutEffect(() => {
    // After a client-side navigation start at the top and move focus to the new content, as a
    // full page load would; the first render keeps the browser's own scroll restoration.
    if (previousLocation.current !== null && previousLocation.current !== location) {
      window.scrollTo(0, 0)
      mainRef.current?.focus({ preventScroll: true })
    }
    previousLocation.current = location
  }, [location])

  return (
    <Layout pages={pages} current={page} mainRef={mainRef}>
      <ErrorBoundary key={location}>
        <PageParamsContext value={params}>
          <Suspense fallback={<PageLoading />}>
            {page.auth === 'required' ? (
              <SignInRequired title={page.heading ?? page.title}>
                <page.component />
              </SignInRequired>
            ) : (
              <page.component />
            )}
            <RevealScan key={location} />
          </Suspense>
        </PageParamsContext>
      </ErrorBoundary>
    </Layout>
  )
}
