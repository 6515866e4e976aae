/**
 * A small picture that tells addresses apart at a glance: a 5×5 mirrored grid whose cells and
 * colour come from the address's bytes (no network, no library). Decorative: the address itself
 * is always shown next to it.
 */
export function Identicon({ address, size = 24 }: { address: string; size?: number }) {
  const hex = address.toLowerCase().replace(/^0x/, '').padEnd(40, '0')
  const byte = (index: number) => parseInt(hex.slice(index * 2, index * 2 + 2), 16) || 0
  const hue = Math.round((byte(0) * 360) / 256)
  const cells: { x: number; y: number }[] = []
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 3; x++) {
      if (byte(1 + y * 3 + x) % 2 === 0) continue
      cells.push({ x, y })
      if (x < 2) cells.push({ x: 4 - x, y })
    }
  }
  return (
    <svg
      className="identicon"
      width={size}
      height={size}
      viewBox="0 0 5 5"
      aria-hidden="true"
      focusable="false"
      shapeRendering="crispEdges"
    >
      <rect width="5" height="5" fill={`hsl(${hue} 45% 88%)`} />
      {cells.map(({ x, y }) => (
        <rect key={`${x}-${y}`} x={x} y={y} width="1" height="1" fill={`hsl(${hue} 60% 38%)`} />
      ))}
    </svg>
  )
}

/** The user's chosen picture when they saved one, else their identicon. Decorative either way. */
export function Avatar({
  address,
  url,
  size = 24,
}: {
  address: string
  url?: string | undefined
  size?: number
}) {
  if (!url) return <Identicon address={address} size={size} />
  return <img className="user-avatar" src={url} alt="" width={size} height={size} />
}
