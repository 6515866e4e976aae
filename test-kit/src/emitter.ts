// Generated from emitter.sol with solc 0.8.28 (npm solc, optimizer on): compiled once;
// recompile and paste if the source changes.
export const emitterAbi = [
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'uint256',
        name: 'id',
        type: 'uint256',
      },
      {
        indexed: false,
        internalType: 'string',
        name: 'text',
        type: 'string',
      },
      {
        indexed: false,
        internalType: 'bool',
        name: 'flag',
        type: 'bool',
      },
      {
        indexed: false,
        internalType: 'int64',
        name: 'delta',
        type: 'int64',
      },
    ],
    name: 'Note',
    type: 'event',
  },
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
  {
    inputs: [
      {
        internalType: 'address',
        name: 'to',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'count',
        type: 'uint256',
      },
      {
        internalType: 'uint256',
        name: 'base',
        type: 'uint256',
      },
    ],
    name: 'mintMany',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'id',
        type: 'uint256',
      },
      {
        internalType: 'string',
        name: 'text',
        type: 'string',
      },
      {
        internalType: 'bool',
        name: 'flag',
        type: 'bool',
      },
      {
        internalType: 'int64',
        name: 'delta',
        type: 'int64',
      },
    ],
    name: 'note',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
] as const

export const emitterBytecode =
  '0x6080604052348015600e575f5ffd5b506103268061001c5f395ff3fe608060405234801561000f575f5ffd5b506004361061003f575f3560e01c806328dadb8f1461004357806340c10f1914610058578063b5bc30921461006b575b5f5ffd5b610056610051366004610181565b61007e565b005b6100566100663660046101b1565b6100dd565b6100566100793660046101ea565b610121565b5f5b828110156100d7576001600160a01b0384165f7fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef6100be8486610288565b60405190815260200160405180910390a3600101610080565b50505050565b6040518181526001600160a01b038316905f907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a35050565b847f104891f76cee818487dacffeb54b5b50b034bd4d8228ce81464f87257643a9bd8585858560405161015794939291906102ad565b60405180910390a25050505050565b80356001600160a01b038116811461017c575f5ffd5b919050565b5f5f5f60608486031215610193575f5ffd5b61019c84610166565b95602085013595506040909401359392505050565b5f5f604083850312156101c2575f5ffd5b6101cb83610166565b946020939093013593505050565b8035600781900b811461017c575f5ffd5b5f5f5f5f5f608086880312156101fe575f5ffd5b85359450602086013567ffffffffffffffff81111561021b575f5ffd5b8601601f8101881361022b575f5ffd5b803567ffffffffffffffff811115610241575f5ffd5b886020828401011115610252575f5ffd5b602091909101945092506040860135801515811461026e575f5ffd5b915061027c606087016101d9565b90509295509295909350565b808201808211156102a757634e487b7160e01b5f52601160045260245ffd5b92915050565b60608152836060820152838560808301375f608085830101525f6080601f19601f870116830101905083151560208301528260070b60408301529594505050505056fea2646970667358221220346143c6b418285edc2307355520cce0bf0675fd3b446b4b38ed0370bda346b364736f6c634300081c0033' as const
