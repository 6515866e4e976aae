import { useEffect } from 'react'

/**
 * While `active`, leaving the page asks first: closing or reloading the tab (the browser's own
 * prompt) and following a link inside the app (a confirm with `question`). A link click that
 * is not confirmed is stopped before the router sees it.
 */
export function useLeaveWarning(active: boolean, question: string): void {
  useEffect(() => {
    if (!active) return
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault()
      // Older browsers show the prompt only when a value is set.
      event.returnValue = ''
    }
    const click = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const link = (event.target as Element | null)?.closest?.('a[href]')
      if (!(link instanceof HTMLAnchorElement) || link.target === '_blank') return
      if (link.origin !== window.location.origin || link.pathname === window.location.pathname)
        return
      if (!window.confirm(question)) {
        event.preventDefault()
        event.stopImmediatePropagation()
      }
    }
    window.addEventListener('beforeunload', beforeUnload)
    // Capture phase on the document: before the router's own click handler on the link.
    document.addEventListener('click', click, true)
    return () => {
      window.removeEventListener('beforeunload', beforeUnload)
      document.removeEventListener('click', click, true)
    }
  }, [active, question])
}
