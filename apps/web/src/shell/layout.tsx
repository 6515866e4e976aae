import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react'
import { Link } from 'wouter'
import { useAuth } from '@portico/react'
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
  const header = useRef<HTMLElement>(null)
  const menuButton = useRef<HTMLButtonElement>(null)
  // The open menu closes on Escape (focus back on its button) and on a click outside the header.
  useEffect(() => {
    if (!menuOpen) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setMenuOpen(false)
      menuButton.current?.focus()
    }
    const onPointer = (event: PointerEvent) => {
      if (!header.current?.contains(event.target as Node)) setMenuOpen(false)
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('pointerdown', onPointer)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('pointerdown', onPointer)
    }
  }, [menuOpen])
  // The team's pages (console, analytics) are linked only for the team: for anyone else they
  // would be a "not allowed" page. The server still checks every request.
  const onTeam = useAuth().user?.role !== undefined
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header" ref={header}>
        <div className="container header-inner">
          <Link href="/" className="brand">
            {site.logo && <img src={site.logo} alt="" width={28} height={28} />}
            {site.name}
          </Link>
          <AuthStatus />
          <button
            ref={menuButton}
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
                  .filter((page) => page.navLabel && (!page.team || onTeam))
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
