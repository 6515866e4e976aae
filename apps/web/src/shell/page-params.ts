import { createContext, useContext } from 'react'
import type { PathParams } from './page-table.ts'

/** The current page's path parameters, provided by the app wrapper. */
export const PageParamsContext = createContext<Record<string, string>>({})

/**
 * The parameters of the current page's path, typed by its pattern:
 * `const { address } = usePageParams<'/u/:address'>()`.
 */
export function usePageParams<Pattern extends string>(): PathParams<Pattern> {
  return useContext(PageParamsContext) as PathParams<Pattern>
}
