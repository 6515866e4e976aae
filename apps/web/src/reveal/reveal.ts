/**
 * Scroll reveal: elements marked `data-reveal` get `data-revealed` the first
 * time at least 10 % of them is visible, then are never watched again. One IntersectionObserver
 * serves the whole app; `scan()` is called after every route change to pick up new elements.
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

  return {
    scan() {
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
      observer?.disconnect()
      observer = undefined
      watched.clear()
    },
  }
}

/** A controller that does nothing, for server rendering. */
export const noopRevealController: RevealController = { scan() {}, disconnect() {} }
