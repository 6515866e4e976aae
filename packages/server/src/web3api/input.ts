import { ParseCode, ParseError } from '../compat/parse-error.ts'

// What a Web3 API call sends, read as v1's hosted service read it: chains by v1's names or hex
// ids, addresses, block numbers, dates, and paging (`limit` at most 100, `offset` or `cursor`).
// Every refusal is a clear error the client shows as `new Error(text)`, never a 5xx.

/** A refusal of a Web3 API call: 141 with the text the v1 client throws. */
export const refused = (message: string) => new ParseError(ParseCode.SCRIPT_FAILED, message)

/** The chains as Moralis v1 named them (their hex ids are accepted as well). */
export const V1_CHAINS: Readonly<Record<string, number>> = {
  eth: 1,
  mainnet: 1,
  ropsten: 3,
  rinkeby: 4,
  goerli: 5,
  kovan: 42,
  sepolia: 11155111,
  polygon: 137,
  matic: 137,
  mumbai: 80001,
  bsc: 56,
  binance: 56,
  'bsc testnet': 97,
  'binance testnet': 97,
  avalanche: 43114,
  'avalanche testnet': 43113,
  fantom: 250,
  cronos: 25,
  'cronos testnet': 338,
  palm: 11297108109,
  arbitrum: 42161,
}

/** The chain id a v1 chain name, hex id (`0x7a69`) or decimal id stands for; undefined if none. */
export function v1ChainId(name: string): number | undefined {
  const key = name.trim().toLowerCase()
  if (Object.hasOwn(V1_CHAINS, key)) return V1_CHAINS[key]
  if (/^0x[0-9a-f]{1,13}$/.test(key)) return Number.parseInt(key, 16) || undefined
  if (/^[1-9][0-9]{0,14}$/.test(key)) return Number(key)
  return undefined
}

/**
 * The served chain a call's `chain` means: v1's name or id, pointed elsewhere by `aliases` (keyed
 * by the chain id the name stands for).
 */
export function chainOf(
  value: unknown,
  aliases: ReadonlyMap<number, number>,
  serves: (chainId: number) => boolean,
): number {
  const text = value === undefined || value === null || value === '' ? 'eth' : value
  if (typeof text !== 'string')
    throw refused('chain is a v1 chain name (eth, polygon, bsc, …) or a hex chain id (0x1).')
  const named = v1ChainId(text)
  if (named === undefined)
    throw refused(
      `Unknown chain "${text.slice(0, 40)}": use a v1 chain name (${Object.keys(V1_CHAINS).join(', ')}) or a hex chain id such as 0x7a69.`,
    )
  const chainId = aliases.get(named) ?? named
  if (!serves(chainId))
    throw refused(
      `Chain ${text.slice(0, 40)} (id ${chainId}) is not served by this server: configure its node (RPC_URL_${chainId}), or point the name at a served chain with WEB3API_CHAINS=${text.slice(0, 40)}:<chain id>.`,
    )
  return chainId
}

type Params = Record<string, unknown>

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** A required address parameter, lowercase. */
export function addressParam(params: Params, key = 'address'): `0x${string}` {
  const value = params[key]
  if (value === undefined || value === null || value === '') throw refused(`${key} is required.`)
  if (typeof value !== 'string' || !ADDRESS.test(value))
    throw refused(`${key} is not an address (0x and 40 hex digits).`)
  return value.toLowerCase() as `0x${string}`
}

/** A list of addresses (`addresses[]`), lowercase, at least one and at most `max`. */
export function addressList(params: Params, key: string, max = 100): `0x${string}`[] {
  const raw = params[key]
  const list = typeof raw === 'string' ? [raw] : raw
  if (!Array.isArray(list) || list.length === 0) throw refused(`${key} is a list of addresses.`)
  if (list.length > max) throw refused(`${key} may hold at most ${max} addresses.`)
  return list.map((_value, index) =>
    addressParam({ [`${key}[${index}]`]: list[index] }, `${key}[${index}]`),
  )
}

/** A block number parameter; undefined when absent. */
export function blockParam(params: Params, key: string): bigint | undefined {
  const value = params[key]
  if (value === undefined || value === null || value === '') return undefined
  const text = typeof value === 'number' ? String(value) : value
  if (typeof text !== 'string' || !/^(0|[1-9][0-9]{0,15})$/.test(text))
    throw refused(`${key} is a block number (a whole number from 0).`)
  return BigInt(text)
}

/** A date parameter (ISO text, or Unix time in seconds or milliseconds); undefined when absent. */
export function dateParam(params: Params, key: string): Date | undefined {
  const value = params[key]
  if (value === undefined || value === null || value === '') return undefined
  let date: Date | undefined
  if (typeof value === 'number' || (typeof value === 'string' && /^[0-9]{1,16}$/.test(value))) {
    const n = Number(value)
    // v1 took either: a number below 10^11 is seconds (until the year 5138).
    date = new Date(n < 1e11 ? n * 1000 : n)
  } else if (typeof value === 'string') date = new Date(value)
  if (!date || Number.isNaN(date.getTime()))
    throw refused(`${key} is a date: ISO text such as 2022-06-29T07:58:00Z, or Unix time.`)
  return date
}

/** A token id: decimal text (or a number), as v1 took it. */
export function tokenIdParam(params: Params, key = 'token_id'): bigint {
  const value = params[key]
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value
  if (typeof text !== 'string' || !/^(0|[1-9][0-9]{0,77})$/.test(text))
    throw refused(`${key} is required: a token id in decimal.`)
  const id = BigInt(text)
  if (id >= 2n ** 256n) throw refused(`${key} is larger than a uint256.`)
  return id
}

/** An optional text parameter from a fixed set. */
export function choiceParam<T extends string>(
  params: Params,
  key: string,
  choices: readonly T[],
  fallback: T,
): T {
  const value = params[key]
  if (value === undefined || value === null || value === '') return fallback
  if (typeof value !== 'string' || !choices.includes(value as T))
    throw refused(`${key} is one of ${choices.join(', ')}.`)
  return value as T
}

/** Most rows one page holds, and what it holds when the call does not say (v1 since June 2022). */
export const PAGE_MAX = 100

/** Where a page starts and how many rows it holds: `limit`, then `cursor` or `offset`. */
export interface PageRequest {
  offset: number
  limit: number
}

export function pageParams(params: Params): PageRequest {
  const rawLimit = params.limit
  let limit = PAGE_MAX
  if (rawLimit !== undefined && rawLimit !== null && rawLimit !== '') {
    limit = Number(rawLimit)
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw refused('limit is a whole number from 1 to 100.')
    if (limit > PAGE_MAX) throw refused(`limit may be at most ${PAGE_MAX} (got ${limit}).`)
  }
  let offset = 0
  const cursor = params.cursor
  if (cursor !== undefined && cursor !== null && cursor !== '') {
    offset = cursorOffset(cursor)
  } else if (params.offset !== undefined && params.offset !== null && params.offset !== '') {
    offset = Number(params.offset)
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw refused('offset is a whole number from 0.')
  }
  return { offset, limit }
}

// A cursor is the next row's position, in a form clients pass back unread.
const CURSOR_PREFIX = 'p1.'

function cursorOffset(cursor: unknown): number {
  const bad = () => refused('cursor is not one this server gave: pass back the cursor of a page.')
  if (typeof cursor !== 'string' || !cursor.startsWith(CURSOR_PREFIX) || cursor.length > 40)
    throw bad()
  const text = Buffer.from(cursor.slice(CURSOR_PREFIX.length), 'base64url').toString('utf8')
  if (!/^o:(0|[1-9][0-9]{0,14})$/.test(text)) throw bad()
  return Number(text.slice(2))
}

const cursorAt = (offset: number) =>
  CURSOR_PREFIX + Buffer.from(`o:${offset}`, 'utf8').toString('base64url')

/** A page in v1's shape, which the client's `result.next()` follows. */
export interface Page<T> {
  total: number
  page: number
  page_size: number
  cursor: string | null
  result: T[]
}

/** The page of `rows` (all of them, in order) that `request` asks for. */
export function pageOf<T>(rows: readonly T[], request: PageRequest): Page<T> {
  return pageFrom(rows.slice(request.offset, request.offset + request.limit), rows.length, request)
}

/** A page whose rows were read already (`total` rows in all). */
export function pageFrom<T>(result: T[], total: number, request: PageRequest): Page<T> {
  const next = request.offset + request.limit
  return {
    total,
    page: Math.floor(request.offset / request.limit),
    page_size: request.limit,
    cursor: next < total ? cursorAt(next) : null,
    result,
  }
}
