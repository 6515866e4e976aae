import { createRequire } from 'node:module'
import type { Abi, Hex } from 'viem'

// The contracts of tokens.sol, compiled once with solc 0.8.28 (npm solc, optimizer on,
// OpenZeppelin Contracts 5.1.0) into tokens.json: recompile if the source changes.

interface Compiled {
  abi: Abi
  bytecode: Hex
}

const compiled = createRequire(import.meta.url)('./tokens.json') as Record<
  'TestToken' | 'TestNft' | 'TestMulti' | 'TestEns',
  Compiled
>

export const { abi: testTokenAbi, bytecode: testTokenBytecode } = compiled.TestToken
export const { abi: testNftAbi, bytecode: testNftBytecode } = compiled.TestNft
export const { abi: testMultiAbi, bytecode: testMultiBytecode } = compiled.TestMulti
export const { abi: testEnsAbi, bytecode: testEnsBytecode } = compiled.TestEns
