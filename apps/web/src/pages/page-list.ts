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
    bodyClass: 'page-home',
    navLabel: 'Home',
    component: lazy(() => import('./home.tsx')),
  },
  {
    path: '/account',
    title: 'Account · Portico',
    bodyClass: 'page-account',
    navLabel: 'Account',
    auth: 'required',
    heading: 'Your account',
    component: lazy(() => import('./account.tsx')),
  },
  {
    path: '/analytics',
    title: 'Analytics · Portico',
    bodyClass: 'page-analytics',
    navLabel: 'Analytics',
    component: lazy(() => import('./analytics.tsx')),
  },
  {
    path: '/u/:address',
    title: 'Wallet · Portico',
    bodyClass: 'page-address',
    component: lazy(() => import('./address.tsx')),
  },
  {
    path: '*',
    title: 'Page not found · Portico',
    bodyClass: 'page-not-found',
    component: lazy(() => import('./not-found.tsx')),
  },
]
