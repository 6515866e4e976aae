import { lazy } from 'react'
import type { PageDefinition } from '../shell/page-table.ts'
import { pageTitle, site } from '../site/site.ts'

/** The admin console: one chunk, loaded by no other page. */
const consolePage = {
  title: pageTitle('Console'),
  bodyClass: 'page-admin',
  component: lazy(() => import('./admin.tsx')),
}

/**
 * The page table. Each page's code loads on first visit; Home is also pre-rendered into the built
 * index.html (scripts/build.mjs) and hydrated.
 */
const allPages: readonly PageDefinition[] = [
  {
    path: '/',
    title: site.name,
    bodyClass: 'page-home',
    navLabel: 'Home',
    component: lazy(() => import('./home.tsx')),
  },
  {
    path: '/account',
    title: pageTitle('Account'),
    bodyClass: 'page-account',
    navLabel: 'Account',
    auth: 'required',
    heading: 'Your account',
    component: lazy(() => import('./account.tsx')),
  },
  {
    path: '/analytics',
    title: pageTitle('Analytics'),
    bodyClass: 'page-analytics',
    navLabel: 'Analytics',
    component: lazy(() => import('./analytics.tsx')),
  },
  { path: '/admin', ...consolePage },
  { path: '/admin/:section', ...consolePage, bodyClass: 'page-admin-section' },
  {
    path: '/u/:address',
    title: pageTitle('Wallet'),
    bodyClass: 'page-address',
    component: lazy(() => import('./address.tsx')),
  },
  {
    path: '*',
    title: pageTitle('Page not found'),
    bodyClass: 'page-not-found',
    component: lazy(() => import('./not-found.tsx')),
  },
]

/** The pages of this site: the table without the ones site.ts hides. */
export const pages = allPages.filter((page) => !site.hiddenPages.includes(page.path))
