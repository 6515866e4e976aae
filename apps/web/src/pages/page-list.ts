import { lazy } from 'react'
import type { PageDefinition } from '../shell/page-table.ts'
import { pageTitle, site } from '../site/site.ts'

/** The admin console: one chunk, loaded by no other page. */
const consolePage = {
  title: pageTitle('Console'),
  bodyClass: 'page-admin',
  team: true,
  crawl: false,
  component: lazy(() => import('./admin.tsx')),
}

/**
 * The console's sections (besides its overview at `/admin`): any other `/admin/…` is Not found
 * (404). A new section of the console is added here too.
 */
const CONSOLE_SECTIONS = [
  'users',
  'objects',
  'roles',
  'files',
  'syncs',
  'web3api',
  'keys',
  'settings',
  'jobs',
  'logs',
  'audit',
  'import',
]

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
    team: true,
    component: lazy(() => import('./analytics.tsx')),
  },
  { path: '/admin', ...consolePage, navLabel: 'Console' },
  {
    path: '/admin/:section',
    ...consolePage,
    bodyClass: 'page-admin-section',
    paramPatterns: { section: CONSOLE_SECTIONS.join('|') },
  },
  {
    path: '/u/:address',
    title: pageTitle('Wallet'),
    bodyClass: 'page-address',
    paramPatterns: { address: '0x[0-9a-fA-F]{40}' },
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
