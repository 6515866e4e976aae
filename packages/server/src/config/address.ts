import { keccak_256 } from '@noble/hashes/sha3'

// Addresses in the settings, checked and checksummed (EIP-55) without viem: the settings are read
// before the server opens its port, and loading viem would add a noticeable part of a second to
// every start.

/** `raw` checksummed when it is an address (any letter case), else undefined. */
export function checksummedAddress(raw: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) return undefined
  const lower = raw.slice(2).toLowerCase()
  const hash = keccak_256(new TextEncoder().encode(lower))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 0x0f
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!
  }
  return out
}
