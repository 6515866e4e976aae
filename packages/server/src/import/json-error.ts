// Where a row's JSON breaks, and in which field: `JSON.parse` says neither reliably, and an
// import error must name the line and the field. Only run on text `JSON.parse` refused.

export interface JsonSyntaxError {
  /** Offset in the text where it breaks. */
  offset: number
  /** The top-level field the break is in, when it is inside one. */
  field?: string
  message: string
}

class Broken extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message)
  }
}

const LITERALS = ['true', 'false', 'null']
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y

/** The first syntax error in `text`, or undefined when it is valid JSON. */
export function syntaxError(text: string): JsonSyntaxError | undefined {
  let at = 0
  let field: string | undefined
  const space = () => {
    while (/\s/.test(text[at] ?? '')) at += 1
  }
  const string = (): string => {
    const start = at
    at += 1
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\n') throw new Broken(at, 'a string is not closed on its line')
      at += text[at] === '\\' ? 2 : 1
    }
    if (at >= text.length) throw new Broken(start, 'a string is not closed')
    at += 1
    try {
      return JSON.parse(text.slice(start, at)) as string
    } catch {
      throw new Broken(start, 'a string has an invalid escape')
    }
  }
  const value = (depth: number): void => {
    space()
    const c = text[at]
    if (c === '{') {
      at += 1
      space()
      if (text[at] === '}') return void (at += 1)
      for (;;) {
        space()
        if (text[at] !== '"') throw new Broken(at, 'a field name is not a double-quoted string')
        const key = string()
        if (depth === 0) field = key
        space()
        if (text[at] !== ':') throw new Broken(at, `":" is missing after "${key.slice(0, 40)}"`)
        at += 1
        value(depth + 1)
        space()
        if (text[at] === ',') {
          at += 1
          continue
        }
        if (text[at] === '}') return void (at += 1)
        throw new Broken(at, 'a "," or "}" is missing')
      }
    }
    if (c === '[') {
      at += 1
      space()
      if (text[at] === ']') return void (at += 1)
      for (;;) {
        value(depth + 1)
        space()
        if (text[at] === ',') {
          at += 1
          continue
        }
        if (text[at] === ']') return void (at += 1)
        throw new Broken(at, 'a "," or "]" is missing')
      }
    }
    if (c === '"') return void string()
    for (const literal of LITERALS)
      if (text.startsWith(literal, at)) return void (at += literal.length)
    NUMBER.lastIndex = at
    const number = NUMBER.exec(text)
    if (number) return void (at += number[0].length)
    const word = /^[A-Za-z+-]+/.exec(text.slice(at, at + 12))?.[0]
    if (word && /^[+-]?(NaN|Infinity)$/.test(word))
      throw new Broken(at, `${word} is not a JSON number (write null, or the value as a string)`)
    throw new Broken(at, c === undefined ? 'the row ends too early' : `unexpected "${c}"`)
  }
  try {
    value(0)
    space()
    if (at < text.length) throw new Broken(at, `unexpected "${text[at]}" after the row`)
    return undefined
  } catch (error) {
    if (!(error instanceof Broken)) throw error
    return {
      offset: error.offset,
      ...(field === undefined ? {} : { field }),
      message: `not valid JSON: ${error.message}`,
    }
  }
}
