import { lazy } from 'react'
import type { PageDefinition } from '../shell/page-table.ts'

/**
 * The page table. Each page's code loads on first visit; Home is also pre-rendered into the built
 * index.html (scripts/build.mjs) and hydrated.
 */
export const pages: readonly PageDefinition[] = [
  {
    path: '/',
    title: 'Portico — a self-hosted shell for blockchain-connected sites',
    description:
      'Wallet sign-in, node access with failover, an object store and first-party analytics, all on your own server.',
    bodyClass: 'page-home',
    navLabel: 'Home',
    component: lazy(() => import('./home.tsx')),
  },
  {
    path: '/account',
    title: 'Account · Portico',
    description: 'Your wallet, your sessions and your profile on this site.',
    bodyClass: 'page-account',
    navLabel: 'Account',
    auth: 'required',
    heading: 'Your account',
    component: lazy(() => import('./account.tsx')),
  },
  {
    path: '/analytics',
    title: 'Analytics · Portico',
    description: "Page views, sign-ins and events of this site, from its own server's records.",
    bodyClass: 'page-analytics',
    navLabel: 'Analytics',
    component: lazy(() => import('./analytics.tsx')),
  },
  {
    path: '/u/:address',
    title: 'Wallet · Portico',
    description: 'A wallet address on this site.',
    bodyClass: 'page-address',
    component: lazy(() => import('./address.tsx')),
  },
  {
    path: '*',
    title: 'Page not found · Portico',
    description: 'There is no page at this address.',
    bodyClass: 'page-not-found',
    component: lazy(() => import('./not-found.tsx')),
  },
]
