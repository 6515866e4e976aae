// React bindings of the Portico SDK: one provider and small hooks. Each module is also
// importable on its own (`@portico/react/useAuth`), which keeps the first load small.
export { PorticoProvider, usePortico } from './portico-provider.ts'
export { useAuth } from './use-auth.ts'
export { useWallet } from './use-wallet.ts'
export { useNode, type NodeReading } from './use-node.ts'
export { useLiveQuery, type LiveQueryParameters, type LiveQueryState } from './use-live-query.ts'
export { RecentActivity, describeEvent, type RecentActivityProps } from './recent-activity.tsx'
