// React bindings of the Portico SDK: one provider and small hooks. Data hooks keep their data
// with TanStack Query (`@tanstack/react-query`), each also offered as query options.
export { PorticoProvider, usePortico } from './portico-provider.ts'
export { usePorticoQueryClient, type PorticoQueryOptions } from './query-client.ts'
export { useAuth } from './use-auth.ts'
export { useWallet } from './use-wallet.ts'
export {
  useNode,
  blockNumberQueryOptions,
  balanceQueryOptions,
  type BalanceQueryKey,
  type BlockNumberQueryKey,
  type NodeReading,
} from './use-node.ts'
export {
  useLiveQuery,
  liveQueryOptions,
  type LiveQueryKey,
  type LiveQueryParameters,
  type LiveQueryState,
} from './use-live-query.ts'
export { RecentActivity, describeEvent, type RecentActivityProps } from './recent-activity.tsx'
export {
  useRoles,
  rolesQueryOptions,
  type RolesQueryKey,
  type RolesQueryParameters,
  type RolesState,
} from './use-roles.ts'
