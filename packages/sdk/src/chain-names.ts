/** Names of the chains sites use most, as wallets show them; others read `Chain <id>`. */
const names: Record<number, string> = {
  1: 'Ethereum',
  10: 'OP Mainnet',
  56: 'BNB Smart Chain',
  100: 'Gnosis',
  137: 'Polygon',
  324: 'zkSync',
  8453: 'Base',
  42161: 'Arbitrum One',
  43114: 'Avalanche',
  59144: 'Linea',
  17000: 'Holesky',
  11155111: 'Sepolia',
  84532: 'Base Sepolia',
  1337: 'Localhost',
  31337: 'Anvil (local)',
}

/** A chain's name for people: `chainName(1)` is `Ethereum`, an unknown id `Chain <id>`. */
export function chainName(chainId: number): string {
  return names[chainId] ?? `Chain ${chainId}`
}
