// The e2e server's site module: a contract-event sync of the Emitter test contract into the
// `Activity` class that the Analytics page shows. The contract is deployed by a test from anvil's
// tenth account as its first transaction, so its address is known before it exists.
import { getContractAddress, parseAbi } from 'viem'

export const deployer = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
export const emitterAddress = getContractAddress({ from: deployer, nonce: 0n })

/** @param {{ defineSync: (definition: object) => void }} api */
export default function setup({ defineSync }) {
  defineSync({
    name: 'e2e-emitter',
    chainId: 31337,
    address: emitterAddress,
    abi: parseAbi([
      'event Transfer(address indexed from, address indexed to, uint256 value)',
      'event Note(uint256 indexed id, string text, bool flag, int64 delta)',
    ]),
    className: 'Activity',
    startBlock: 0,
    confirmations: 1,
    pollMs: 200,
  })
}
