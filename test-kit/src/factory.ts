// Generated from factory.sol with solc 0.8.28 (npm solc, optimizer on): compiled once;
// recompile and paste if the source changes.
export const factoryAbi = [
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'child',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'serial',
        type: 'uint256',
      },
    ],
    name: 'ChildCreated',
    type: 'event',
  },
  {
    inputs: [],
    name: 'create',
    outputs: [
      {
        internalType: 'address',
        name: 'child',
        type: 'address',
      },
    ],
    stateMutability: 'nonpayable',
    type: 'function',
  },
] as const

export const childAbi = [
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'from',
        type: 'address',
      },
      {
        indexed: true,
        internalType: 'address',
        name: 'to',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'value',
        type: 'uint256',
      },
    ],
    name: 'Transfer',
    type: 'event',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'to',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'value',
        type: 'uint256',
      },
    ],
    name: 'mint',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
] as const

export const factoryBytecode =
  '0x6080604052348015600e575f5ffd5b5061022a8061001c5f395ff3fe6080604052348015600e575f5ffd5b50600436106026575f3560e01c8063efc81a8c14602a575b5f5ffd5b6030604c565b6040516001600160a01b03909116815260200160405180910390f35b5f60405160579060c1565b604051809103905ff080158015606f573d5f5f3e3d5ffd5b509050806001600160a01b03167ff1b544c1944129b0fa24838a22f6c7d8500381559fa6d6ccf8845923f0922a2c5f5f815460a89060ce565b918290555060405190815260200160405180910390a290565b610103806100f283390190565b5f6001820160ea57634e487b7160e01b5f52601160045260245ffd5b506001019056fe6080604052348015600e575f5ffd5b5060e88061001b5f395ff3fe6080604052348015600e575f5ffd5b50600436106026575f3560e01c806340c10f1914602a575b5f5ffd5b60396035366004607f565b603b565b005b6040518181526001600160a01b038316905f907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a35050565b5f5f60408385031215608f575f5ffd5b82356001600160a01b038116811460a4575f5ffd5b94602093909301359350505056fea2646970667358221220ce9b6d1d78e9d26075e449a2862cdd3296dec9d9e9678b2d6c146edccb7d22a964736f6c634300081c0033a26469706673582212201241abadb74825da6535b6b23ce2b1c96413f6b23461ba485343aa23ac45f78264736f6c634300081c0033' as const
