/**
 * The value axis of the events chart: a round step (1, 2, 2.5 or 5 times a power of ten) giving
 * about four gridlines, and a top that is a whole number of steps at or above the highest bar,
 * so the top gridline's label is never below a bar that rises above it.
 */
export function valueAxis(highest: number): { top: number; step: number; ticks: number[] } {
  const max = Math.max(4, Math.ceil(highest))
  const raw = max / 4
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step =
    [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw) ??
    10 * magnitude
  // Whole events only: a step of 2.5 below 10 would label half events.
  const whole = Number.isInteger(step) ? step : Math.ceil(step)
  const top = Math.ceil(max / whole) * whole
  const ticks: number[] = []
  for (let tick = 0; tick <= top; tick += whole) ticks.push(tick)
  return { top, step: whole, ticks }
}
