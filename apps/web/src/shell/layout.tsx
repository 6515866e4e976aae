import { useEffect, useState, type ReactNode, type RefObject } from 'react'
import { Link } from 'wouter'
import { site } from '../site/site.ts'
import { ThemeControl } from '../theme/theme-control.tsx'
import { AuthStatus } from '../wallet/auth-status.tsx'
import type { PageDefinition } from './page-table.ts'

/** Header (skip link, brand, navigation, theme control), the page, and the footer. */
export function Layout({
  pages,
  current,
  mainRef,
  children,
}: {
  pages: readonly PageDefinition[]
  current: PageDefinition
  mainRef: RefObject<HTMLElement | null>
  children: ReactNode
}) {
  // Phones show a Menu button instead of the navigation and the theme control (one header row).
  const [menuOpen, setMenuOpen] = useState(false)
  useEffect(() => setMenuOpen(false), [current])
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="container header-inner">
          <Link href="/" className="brand">
            {site.logo && <img src={site.logo} alt="" width={28} height={28} />}
            {site.name}
          </Link>
          <AuthStatus />
          <button
            type="button"
            className="menu-button button-secondary"
            aria-expanded={menuOpen}
            aria-controls="site-menu"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <span className="menu-icon" aria-hidden="true" />
            <span className="visually-hidden">Menu</span>
          </button>
          <div id="site-menu" className="site-menu" data-open={menuOpen || undefined}>
            <nav aria-label="Main">
              <ul className="nav-list">
                {pages
                  .filter((page) => page.navLabel)
                  .map((page) => (
                    <li key={page.path}>
                      <Link href={page.path} aria-current={page === current ? 'page' : undefined}>
                        {page.navLabel}
                      </Link>
                    </li>
                  ))}
              </ul>
            </nav>
            <ThemeControl />
          </div>
        </div>
      </header>
      <main id="main" ref={mainRef} tabIndex={-1} className="container site-main">
        {children}
      </main>
      <footer className="site-footer">
        <div className="container">
          <p>
            {site.name} — {site.footer.text}
            {site.footer.links.map((link) => (
              <a key={link.href} href={link.href} className="footer-link">
                {link.label}
              </a>
            ))}
          </p>
        </div>
      </footer>
    </>
  )
}
