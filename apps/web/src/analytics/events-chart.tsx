import { useEffect, useRef, useState } from 'react'
import type uPlot from 'uplot'
import { bucketLabel, describeSeries } from './format.ts'
import { valueAxis } from './scale.ts'
import type { Bucket, SeriesPoint } from './stats.ts'

const HEIGHT = 240

/** Colours for the canvas, read from the theme's CSS variables (the canvas cannot use them). */
function themeColours(element: Element) {
  const style = getComputedStyle(element)
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback
  return {
    accent: read('--accent', '#1d4ed8'),
    text: read('--muted', '#4a5361'),
    grid: read('--border', '#cfd5de'),
  }
}

function chartOptions(
  UPlot: typeof uPlot,
  width: number,
  bucket: Bucket,
  element: Element,
  label: string,
) {
  const colours = themeColours(element)
  const half = (bucket === 'hour' ? 3_600_000 : 86_400_000) / 2
  // The value axis of the data drawn last (the scale's range is worked out before the splits).
  let values = valueAxis(0)
  const axis = {
    stroke: colours.text,
    grid: { stroke: colours.grid, width: 1 },
    ticks: { stroke: colours.grid, width: 1 },
  }
  const options: uPlot.Options = {
    width,
    height: HEIGHT,
    ms: 1,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: {
      // Half a bucket of room on each side, so the first and last bars are whole.
      x: { time: true, range: (_u, min, max) => [min - half, max + half] },
      // Up to a round value at or above the highest bar, with a gridline there (valueAxis).
      y: {
        range: (_u, _min, max) => {
          values = valueAxis(max)
          return [0, values.top]
        },
      },
    },
    axes: [
      {
        ...axis,
        // One label per bucket start, thinned out to what fits (about one per 72 px).
        splits: (u) => {
          const starts = (u.data[0] ?? []) as number[]
          const step = Math.max(1, Math.ceil(starts.length / Math.max(1, Math.floor(width / 72))))
          return starts.filter((_start, index) => (starts.length - 1 - index) % step === 0)
        },
        values: (_u, splits) => splits.map((split) => bucketLabel(split, bucket)),
      },
      {
        ...axis,
        size: 48,
        splits: () => values.ticks,
        values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? String(s) : '')),
      },
    ],
    series: [
      {},
      {
        label,
        stroke: colours.accent,
        fill: colours.accent,
        width: 0,
        points: { show: false },
        paths: UPlot.paths.bars?.({ size: [0.7, 48], align: 0 }),
      },
    ],
  }
  return options
}

/**
 * Events over time as a bar chart (uPlot, loaded with this page only, never on `/`). The canvas
 * is hidden from assistive technology: the figure's caption describes it in words and the table
 * beside it has every number.
 */
export function EventsChart({
  points,
  bucket,
  noun = 'events',
}: {
  points: readonly SeriesPoint[]
  bucket: Bucket
  /** What is counted, in the plural ("events", "visitors"). */
  noun?: string
}) {
  const container = useRef<HTMLDivElement>(null)
  const [failed, setFailed] = useState(false)
  const [loading, setLoading] = useState(true)

  useEffect(() => {
    const element = container.current
    if (!element) return
    let chart: uPlot | undefined
    let cancelled = false
    const observers: { disconnect(): void }[] = []
    const data: uPlot.AlignedData = [points.map((p) => p.start), points.map((p) => p.count)]

    Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')])
      .then(([{ default: UPlot }]) => {
        if (cancelled) return
        const draw = () => {
          chart?.destroy()
          chart = new UPlot(
            chartOptions(UPlot, element.clientWidth, bucket, element, noun),
            data,
            element,
          )
        }
        draw()
        setLoading(false)
        // Redraw with the new colours when the theme (an attribute on <html>) changes.
        const themeWatch = new MutationObserver(draw)
        themeWatch.observe(document.documentElement, { attributeFilter: ['data-theme'] })
        observers.push(themeWatch)
        if (typeof ResizeObserver === 'function') {
          const resize = new ResizeObserver(() =>
            chart?.setSize({ width: element.clientWidth, height: HEIGHT }),
          )
          resize.observe(element)
          observers.push(resize)
        }
      })
      .catch(() => {
        if (!cancelled) setFailed(true)
      })
    return () => {
      cancelled = true
      for (const observer of observers) observer.disconnect()
      chart?.destroy()
    }
  }, [points, bucket, noun])

  return (
    <figure className="events-chart">
      {loading && !failed && <p className="muted events-chart-note">Loading chart…</p>}
      {failed && (
        <p className="events-chart-note">
          The chart could not be loaded; the table has the numbers.
        </p>
      )}
      {/* uPlot owns this element's children; React renders nothing into it. */}
      <div
        ref={container}
        className="events-chart-canvas"
        aria-hidden="true"
        style={{ height: failed ? 0 : HEIGHT }}
      />
      <figcaption>{describeSeries(points, bucket, noun)}</figcaption>
    </figure>
  )
}
