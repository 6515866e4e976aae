import { Link, useLocation } from 'wouter'

/** Shown for every path the page table does not know. */
export default function NotFound() {
  const [location] = useLocation()
  return (
    <section className="not-found" data-reveal>
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{location}</code>. It may have moved, or the link may be mistyped.
      </p>
      <p>
        <Link href="/">Back to the home page</Link>
      </p>
    </section>
  )
}
