// React bindings of the Portico SDK: one provider and small hooks. Each module is also
// importable on its own (`@portico/react/useAuth`), which keeps the first load small.
export { PorticoProvider, usePortico } from './PorticoProvider.ts'
export { useAuth } from './useAuth.ts'
export { useWallet } from './useWallet.ts'
export { useNode, type NodeReading } from './useNode.ts'
