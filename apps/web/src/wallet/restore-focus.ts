// Where focus goes when the connect dialog closes; loaded with the dialog, not with the page.

/**
 * Back to the element that opened the dialog. The opener may have been replaced: a page's "Sign
 * in" button gives way to the page itself once signed in, so focus goes to its heading; a header
 * button gives way to the header's new one.
 */
export function restoreFocus(opener: HTMLElement | null): void {
  if (opener?.closest('main') && !shown(opener)) focusPageHeading()
  else if (opener?.isConnected) opener.focus()
  else document.querySelector<HTMLElement>('.auth-status button, .auth-status a')?.focus()
}

/**
 * In the page and shown: while a page's code loads, the content it replaces may stay in the
 * document, hidden (React keeps it under a Suspense boundary).
 */
function shown(element: HTMLElement): boolean {
  return element.isConnected && element.checkVisibility()
}

/**
 * Moves focus to the main heading, waiting (up to 3 s) for a page whose code is still loading to
 * render it; the heading is made focusable from script only.
 */
function focusPageHeading() {
  const main = document.querySelector('main')
  if (!main) return
  const focus = () => {
    const heading = [...main.querySelectorAll<HTMLElement>('h1')].find(shown)
    if (!heading) return false
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1
    heading.focus()
    return true
  }
  if (focus()) return
  main.focus({ preventScroll: true })
  const observer = new MutationObserver(() => focus() && observer.disconnect())
  observer.observe(main, { childList: true, subtree: true })
  setTimeout(() => observer.disconnect(), 3000)
}
