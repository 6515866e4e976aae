import type { AbiEvent } from 'viem'
import type { Document } from '../objects/wire.ts'
import { fieldFor } from './decode.ts'

// Moralis v1's filter on a watched event's fields, which keeps only the events it matches:
// `{"eq": ["price", "80000000000000000"]}`, joined with `{"and": [...]}` and `{"or": [...]}`;
// `eq` / `ne` on any field, `gt` / `gte` / `lt` / `lte` on integers (by name, or v1's
// `<name>_decimal` / `<name>_decimals`), an input named `id` as `uid`. Integers and addresses
// compare by value (`"0x0"` is the zero address); anything else v1 may have taken is refused
// with the reason, never ignored.

export type EventFilter = (data: Document) => boolean

const COMPARISONS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'] as const
type Comparison = (typeof COMPARISONS)[number]
const MAX_DEPTH = 8
const MAX_TERMS = 100

/** The filter's test of a row of `event`; throws an Error saying what in `filter` is wrong. */
export function compileFilter(filter: unknown, event: AbiEvent): EventFilter {
  let terms = 0
  const inputs = new Map(
    event.inputs.map((input, i) => [
      input.name === 'id' ? 'uid' : (input.name ?? ''),
      { field: fieldFor(input.name, i), type: input.type },
    ]),
  )
  const compile = (node: unknown, depth: number): EventFilter => {
    if (depth > MAX_DEPTH) throw new Error(`filter: nested deeper than ${MAX_DEPTH} levels.`)
    if (++terms > MAX_TERMS) throw new Error(`filter: more than ${MAX_TERMS} terms.`)
    if (node === null || typeof node !== 'object' || Array.isArray(node))
      throw new Error('filter: each part is an object like {"eq": ["field", "value"]}.')
    const entries = Object.entries(node)
    if (entries.length !== 1)
      throw new Error(
        'filter: each part has exactly one operator (eq, ne, gt, gte, lt, lte, and, or).',
      )
    const [operator, operand] = entries[0]!
    if (operator === 'and' || operator === 'or') {
      if (!Array.isArray(operand) || operand.length === 0)
        throw new Error(`filter: "${operator}" takes a non-empty list of conditions.`)
      const parts = operand.map((part) => compile(part, depth + 1))
      return operator === 'and'
        ? (data) => parts.every((part) => part(data))
        : (data) => parts.some((part) => part(data))
    }
    if (!(COMPARISONS as readonly string[]).includes(operator))
      throw new Error(
        `filter: "${operator.slice(0, 40)}" is not supported (eq, ne, gt, gte, lt, lte, and, or are).`,
      )
    return comparison(operator as Comparison, operand)
  }

  const comparison = (operator: Comparison, operand: unknown): EventFilter => {
    if (!Array.isArray(operand) || operand.length !== 2 || typeof operand[0] !== 'string')
      throw new Error(`filter: "${operator}" takes ["field", value].`)
    const [name, expected] = operand as [string, unknown]
    const bare = name.replace(/_decimals?$/, '')
    const input = inputs.get(name) ?? (bare !== name ? inputs.get(bare) : undefined)
    if (!input)
      throw new Error(
        `filter: "${name.slice(0, 64)}" is not an input of ${event.name} (${[...inputs.keys()].join(', ')}).`,
      )
    const integer = /^u?int\d*$/.test(input.type)
    if (bare !== name && !integer)
      throw new Error(`filter: "${name.slice(0, 64)}": _decimal goes with integer inputs.`)
    if (operator !== 'eq' && operator !== 'ne' && !integer)
      throw new Error(
        `filter: "${operator}" compares integer inputs only; ${name} is ${input.type}.`,
      )
    const read = reader(input.type)
    const want = read(expected)
    if (want === undefined)
      throw new Error(
        `filter: ${JSON.stringify(expected)?.slice(0, 80)} is not a ${input.type} for ${name}.`,
      )
    return (data) => {
      const got = read(data[input.field])
      if (got === undefined) return operator === 'ne'
      switch (operator) {
        case 'eq':
          return got === want
        case 'ne':
          return got !== want
        case 'gt':
          return got > want
        case 'gte':
          return got >= want
        case 'lt':
          return got < want
        case 'lte':
          return got <= want
      }
    }
  }

  return compile(filter, 0)
}

/** How values of an input of `type` are compared: undefined for one that is not of the type. */
function reader(type: string): (value: unknown) => bigint | boolean | string | undefined {
  if (/^u?int\d*$/.test(type) || type === 'address')
    return (value: unknown): bigint | undefined => {
      if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value)
      if (typeof value !== 'string' || !/^(-?[0-9]{1,80}|0x[0-9a-fA-F]{1,64})$/.test(value))
        return undefined
      return BigInt(value)
    }
  if (type === 'bool')
    return (value: unknown): boolean | undefined =>
      value === true || value === 'true'
        ? true
        : value === false || value === 'false'
          ? false
          : undefined
  if (type.startsWith('bytes'))
    return (value: unknown): string | undefined =>
      typeof value === 'string' ? value.toLowerCase() : undefined
  if (type === 'string')
    return (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
  return () => {
    throw new Error(`filter: inputs of type ${type} cannot be filtered on.`)
  }
}
