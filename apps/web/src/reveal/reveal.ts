/**
 * Scroll reveal: elements marked `data-reveal` get `data-revealed` the first
 * time at least 10 % of them is visible, then are never watched again. One IntersectionObserver
 * serves the whole app. Elements are picked up whenever they mount, not only on route changes:
 * content that appears later (after a sign-in, a sign-out, data loading) would otherwise stay
 * hidden. A MutationObserver on the root triggers the scan; `scan()` can also be called directly.
 *
 * Hiding is pure CSS under `html.reveal` (set by the inline script in index.html only when JS,
 * IntersectionObserver and motion are all available), so without JS nothing is ever hidden.
 */

/** Attribute that marks an element for reveal. */
export const REVEAL_ATTRIBUTE = 'data-reveal'
/** Attribute set once an element has been revealed. */
export const REVEALED_ATTRIBUTE = 'data-revealed'
/** Revealed when 10 % of the element is visible. */
export const REVEAL_THRESHOLD = 0.1

export interface RevealController {
  /** Finds marked elements not yet revealed or watched under the root and starts watching them. */
  scan(): void
  /** Stops watching everything. */
  disconnect(): void
}

export interface RevealOptions {
  /** Where to look for marked elements (normally `document`). */
  root: ParentNode
  /** The constructor to use; absent → every element is revealed at once. */
  IntersectionObserver: typeof IntersectionObserver | undefined
  /** Checked on every scan: true → reveal at once, no animation (prefers-reduced-motion). */
  reducedMotion: () => boolean
  /** Watches the root for elements mounted later; absent → only explicit `scan()` calls find them. */
  MutationObserver?: typeof MutationObserver | undefined
  threshold?: number
}

/** Creates the app's reveal controller. Nothing is observed until the first `scan()`. */
export function createRevealController(options: RevealOptions): RevealController {
  const threshold = options.threshold ?? REVEAL_THRESHOLD
  // Elements being watched; pruned on scan so unmounted pages are not kept alive by the observer.
  const watched = new Set<Element>()
  let observer: IntersectionObserver | undefined

  const reveal = (element: Element) => element.setAttribute(REVEALED_ATTRIBUTE, '')

  const getObserver = (Observer: typeof IntersectionObserver) => {
    observer ??= new Observer(
      (entries, self) => {
        for (const entry of entries) {
          // The first callback after observe() reports the current state even below the
          // threshold, so check the ratio rather than trusting isIntersecting alone.
          if (entry.isIntersecting && entry.intersectionRatio >= threshold) {
            reveal(entry.target)
            self.unobserve(entry.target)
            watched.delete(entry.target)
          }
        }
      },
      { threshold },
    )
    return observer
  }

  let mutations: MutationObserver | undefined
  let scheduled = false
  const scanSoon = () => {
    if (scheduled) return
    scheduled = true
    // One scan per burst of DOM changes (React commits many nodes at once).
    queueMicrotask(() => {
      scheduled = false
      controller.scan()
    })
  }

  const controller: RevealController = {
    scan() {
      if (!mutations && options.MutationObserver && 'nodeType' in options.root) {
        mutations = new options.MutationObserver(scanSoon)
        mutations.observe(options.root as Node, { childList: true, subtree: true })
      }
      for (const element of watched) {
        if (!element.isConnected) {
          observer?.unobserve(element)
          watched.delete(element)
        }
      }
      const pending = options.root.querySelectorAll(
        `[${REVEAL_ATTRIBUTE}]:not([${REVEALED_ATTRIBUTE}])`,
      )
      const Observer = options.IntersectionObserver
      const immediate = !Observer || options.reducedMotion()
      for (const element of pending) {
        if (immediate) reveal(element)
        else if (!watched.has(element)) {
          watched.add(element)
          getObserver(Observer).observe(element)
        }
      }
    },
    disconnect() {
      mutations?.disconnect()
      mutations = undefined
      observer?.disconnect()
      observer = undefined
      watched.clear()
    },
  }
  return controller
}

/** A controller that does nothing, for server rendering. */
export const noopRevealController: RevealController = { scan() {}, disconnect() {} }
