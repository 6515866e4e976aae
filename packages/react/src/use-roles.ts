import { useMemo } from 'react'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { listRoles, type ListRolesReturnType, type RoleSummary } from '@portico/sdk/backend'
import type { Portico } from '@portico/sdk/portico'
import { usePortico } from './portico-provider.ts'
import { usePorticoQueryClient, type PorticoQueryOptions } from './query-client.ts'
import { useAuth } from './use-auth.ts'

export interface RolesQueryParameters {
  /**
   * The signed-in user's id (undefined for a visitor): which roles are readable depends on who
   * asks, so each user has a key of their own.
   */
  userId?: string | undefined
  /** At most 1000 (server default 100). */
  limit?: number | undefined
  skip?: number | undefined
}

/** The key of a page of roles: whose view, and which page. */
export type RolesQueryKey = readonly [
  'portico',
  'roles',
  { userId: string | null; limit: number | null; skip: number | null },
]

export interface RolesState {
  roles: RoleSummary[]
  /** How many roles the caller may read in all, once read. */
  count: number | undefined
  isLoading: boolean
  error?: unknown
}

/**
 * The query behind `useRoles`: a page of the roles the caller may read, by name. Invalidate it
 * after changing roles (`createRole`, `addToRole`, …) to read them again.
 * @example queryClient.invalidateQueries({ queryKey: ['portico', 'roles'] })
 */
export function rolesQueryOptions(
  portico: Portico,
  { userId, limit, skip }: RolesQueryParameters = {},
): PorticoQueryOptions<ListRolesReturnType, RolesQueryKey> {
  return queryOptions({
    queryKey: [
      'portico',
      'roles',
      { userId: userId ?? null, limit: limit ?? null, skip: skip ?? null },
    ] as RolesQueryKey,
    queryFn: async () => listRoles(await portico.backend(), { limit, skip }),
    // The backend client retries by itself.
    retry: false,
  })
}

const none: RoleSummary[] = []

/**
 * The roles the signed-in user (or a visitor) may read, by name, read again when the user
 * changes. Changes made since are read on `invalidateQueries` (see `rolesQueryOptions`).
 * @example const { roles } = useRoles()
 */
export function useRoles(parameters: Omit<RolesQueryParameters, 'userId'> = {}): RolesState {
  const portico = usePortico()
  const queryClient = usePorticoQueryClient()
  const { status, user } = useAuth()
  const query = useQuery(
    {
      ...rolesQueryOptions(portico, { ...parameters, userId: user?.id }),
      // Not before the session is known: a restored user would be asked for twice.
      enabled: status !== 'undefined',
    },
    queryClient,
  )
  const { data, isPending, error } = query
  return useMemo(
    () => ({
      roles: data?.results ?? none,
      count: data?.count,
      isLoading: isPending,
      error: error ?? undefined,
    }),
    [data, isPending, error],
  )
}
