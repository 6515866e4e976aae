// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { REVEAL_THRESHOLD, createRevealController } from './reveal.ts'

/** Records every observer made, so tests can play the browser's intersection callbacks. */
class FakeObserver {
  static instances: FakeObserver[] = []
  readonly observed = new Set<Element>()
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit,
  ) {
    FakeObserver.instances.push(this)
  }
  observe(element: Element) {
    this.observed.add(element)
  }
  unobserve(element: Element) {
    this.observed.delete(element)
  }
  disconnect() {
    this.observed.clear()
  }
  /** Reports `ratio` visibility for an element, as the browser would. */
  report(element: Element, ratio: number) {
    const entry = { target: element, intersectionRatio: ratio, isIntersecting: ratio > 0 }
    this.callback([entry as IntersectionObserverEntry], this as unknown as IntersectionObserver)
  }
}

function page(count: number): HTMLElement[] {
  document.body.innerHTML = ''
  return Array.from({ length: count }, (_, i) => {
    const element = document.createElement('section')
    element.setAttribute('data-reveal', '')
    element.id = `s${i}`
    document.body.append(element)
    return element
  })
}

const revealed = (element: Element) => element.hasAttribute('data-revealed')

function controller(options: { reducedMotion?: boolean; observer?: boolean } = {}) {
  return createRevealController({
    root: document,
    IntersectionObserver:
      options.observer === false
        ? undefined
        : (FakeObserver as unknown as typeof IntersectionObserver),
    reducedMotion: () => !!options.reducedMotion,
  })
}

beforeEach(() => {
  FakeObserver.instances = []
})

describe('createRevealController', () => {
  it('uses one shared observer with threshold 0.1 for every element', () => {
    const elements = page(3)
    controller().scan()
    expect(FakeObserver.instances).toHaveLength(1)
    expect(FakeObserver.instances[0]?.options.threshold).toBe(0.1)
    expect(REVEAL_THRESHOLD).toBe(0.1)
    expect([...(FakeObserver.instances[0]?.observed ?? [])]).toEqual(elements)
    expect(elements.some(revealed)).toBe(false)
  })

  it('reveals at 10 % visible, not below, and then stops watching the element', () => {
    const [element] = page(1) as [HTMLElement]
    controller().scan()
    const observer = FakeObserver.instances[0]!
    observer.report(element, 0.05)
    expect(revealed(element)).toBe(false)
    observer.report(element, 0.1)
    expect(revealed(element)).toBe(true)
    expect(observer.observed.has(element)).toBe(false)
  })

  it('reveals once: scrolling away does not hide it and a rescan does not watch it again', () => {
    const [element] = page(1) as [HTMLElement]
    const reveal = controller()
    reveal.scan()
    const observer = FakeObserver.instances[0]!
    observer.report(element, 0.5)
    observer.report(element, 0)
    expect(revealed(element)).toBe(true)
    reveal.scan()
    expect(observer.observed.size).toBe(0)
  })

  it('picks up elements added after a route change, without observing old ones twice', () => {
    const reveal = controller()
    const [first] = page(1) as [HTMLElement]
    reveal.scan()
    reveal.scan()
    const observer = FakeObserver.instances[0]!
    expect(observer.observed.size).toBe(1)

    const [next] = page(1) as [HTMLElement] // the old page is unmounted, a new one mounted
    reveal.scan()
    expect(FakeObserver.instances).toHaveLength(1)
    expect(observer.observed.has(first)).toBe(false)
    expect(observer.observed.has(next)).toBe(true)
  })

  it('reveals everything at once when the user prefers reduced motion', () => {
    const elements = page(3)
    controller({ reducedMotion: true }).scan()
    expect(elements.every(revealed)).toBe(true)
    expect(FakeObserver.instances).toHaveLength(0)
  })

  it('reveals everything at once without IntersectionObserver', () => {
    const elements = page(2)
    controller({ observer: false }).scan()
    expect(elements.every(revealed)).toBe(true)
  })

  it('can start again after disconnect', () => {
    const [element] = page(1) as [HTMLElement]
    const reveal = controller()
    reveal.scan()
    reveal.disconnect()
    reveal.scan()
    expect(FakeObserver.instances).toHaveLength(2)
    FakeObserver.instances[1]!.report(element, 1)
    expect(revealed(element)).toBe(true)
  })
})

describe('elements mounted after the last route change', () => {
  beforeEach(() => {
    FakeObserver.instances = []
  })

  it('are watched as soon as they mount, so late content is never left hidden', async () => {
    const [first] = page(1)
    const controller = createRevealController({
      root: document,
      IntersectionObserver: FakeObserver as unknown as typeof IntersectionObserver,
      MutationObserver: window.MutationObserver,
      reducedMotion: () => false,
    })
    controller.scan()
    const observer = FakeObserver.instances[0]!
    expect(observer.observed.has(first!)).toBe(true)

    // e.g. "Your account" after a sign-in, or the sign-in prompt after a sign-out
    const late = document.createElement('section')
    late.setAttribute('data-reveal', '')
    document.body.append(late)
    const nested = document.createElement('div')
    nested.innerHTML = '<section data-reveal></section>'
    document.body.append(nested)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(observer.observed.has(late)).toBe(true)
    expect(observer.observed.has(nested.firstElementChild!)).toBe(true)

    observer.report(late, REVEAL_THRESHOLD)
    expect(late.hasAttribute('data-revealed')).toBe(true)
    controller.disconnect()
  })
})
