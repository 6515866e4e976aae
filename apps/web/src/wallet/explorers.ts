/** Block explorers of the chains sites use most: where anyone can look an address up. */
const explorers: Record<number, { name: string; url: string }> = {
  1: { name: 'Etherscan', url: 'https://etherscan.io' },
  10: { name: 'Optimistic Etherscan', url: 'https://optimistic.etherscan.io' },
  56: { name: 'BscScan', url: 'https://bscscan.com' },
  100: { name: 'Gnosisscan', url: 'https://gnosisscan.io' },
  137: { name: 'PolygonScan', url: 'https://polygonscan.com' },
  8453: { name: 'BaseScan', url: 'https://basescan.org' },
  17000: { name: 'Holesky Etherscan', url: 'https://holesky.etherscan.io' },
  42161: { name: 'Arbiscan', url: 'https://arbiscan.io' },
  59144: { name: 'LineaScan', url: 'https://lineascan.build' },
  84532: { name: 'BaseScan (Sepolia)', url: 'https://sepolia.basescan.org' },
  11155111: { name: 'Sepolia Etherscan', url: 'https://sepolia.etherscan.io' },
}

/** The explorer's page of `address` on `chainId`, or undefined (a local chain has none). */
export function explorerLink(
  chainId: number | undefined,
  address: string,
): { name: string; href: string } | undefined {
  const explorer = chainId === undefined ? undefined : explorers[chainId]
  return explorer && { name: explorer.name, href: `${explorer.url}/address/${address}` }
}
