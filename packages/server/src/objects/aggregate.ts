import { and, sql, type SQL } from 'drizzle-orm'
import { objects } from '../db/schema.ts'
import { badRequest } from '../errors.ts'
import { parseWhere } from './condition.ts'
import { isValidName } from './names.ts'
import { translateWhere } from './query.ts'

// Parse's `aggregate` pipelines, limited to the stages that map safely to SQL: `$match` (the
// query language, before the other stages), `$group` (`_id` null, a field or an object of
// fields; `$sum`, `$avg`, `$min`, `$max`, `$count`), `$sort`, `$skip`, `$limit`, `$project` and
// `$count`, each as often as needed. Each stage after the first `$match`es is one SELECT over the one before, whose rows are
// documents (`doc`, jsonb) in an order (`ord`). Fields are bound parameters; nothing sent is
// spliced into the SQL text.

export const MAX_STAGES = 20
/** Most documents an aggregate answers. */
export const MAX_RESULTS = 10_000

const invalid = (message: string) => badRequest(message, 'invalid_query')

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** `$field` → the field's name (checked). */
function fieldRef(value: unknown, where: string): string {
  if (typeof value !== 'string' || !value.startsWith('$'))
    throw invalid(`${where} takes a field as "$name".`)
  const name = value.slice(1)
  if (!isValidName(name)) throw invalid(`${where}: "${value.slice(0, 80)}" is not a field.`)
  return name
}

const docField = (name: string): SQL => sql`(s.doc -> ${name}::text)`

function accumulator(name: string, spec: unknown): SQL {
  if (!isObject(spec) || Object.keys(spec).length !== 1)
    throw invalid(`"${name}" in $group takes one accumulator, e.g. {"$sum": "$price"}.`)
  const [op, arg] = Object.entries(spec)[0]!
  const number = (field: string) =>
    sql`(case when jsonb_typeof(${docField(field)}) = 'number' then (${docField(field)})::text::numeric end)`
  switch (op) {
    case '$sum':
      if (typeof arg === 'number') return sql`to_jsonb(count(*) * ${arg}::numeric)`
      return sql`to_jsonb(coalesce(sum(${number(fieldRef(arg, '$sum'))}), 0))`
    case '$avg':
      return sql`to_jsonb(avg(${number(fieldRef(arg, '$avg'))}))`
    case '$min':
    case '$max': {
      const value = docField(fieldRef(arg, op))
      const direction = op === '$min' ? sql`asc` : sql`desc`
      return sql`coalesce((array_agg(${value} order by ${value} ${direction}) filter (where ${value} is not null and ${value} <> 'null'::jsonb))[1], 'null'::jsonb)`
    }
    case '$count':
      return sql`to_jsonb(count(*))`
    default:
      throw invalid(
        `${op.slice(0, 20)} is not an accumulator Portico runs: use $sum, $avg, $min, $max or $count.`,
      )
  }
}

function groupStage(spec: unknown, from: SQL): SQL {
  if (!isObject(spec)) throw invalid('$group takes an object with "_id".')
  const { _id, objectId, ...accumulators } = spec
  const id = _id === undefined ? objectId : _id
  if (id === undefined) throw invalid('$group needs "_id": null, "$field" or {"name": "$field"}.')
  let key: SQL
  if (id === null) key = sql`'null'::jsonb`
  else if (typeof id === 'string') key = docField(fieldRef(id, '$group _id'))
  else if (isObject(id)) {
    const parts = Object.entries(id).flatMap(([name, ref]) => {
      if (!isValidName(name))
        throw invalid(`"${String(name).slice(0, 80)}" in $group _id is no name.`)
      return [sql`${name}::text`, docField(fieldRef(ref, '$group _id'))]
    })
    if (parts.length === 0) throw invalid('$group _id names at least one field.')
    key = sql`jsonb_build_object(${sql.join(parts, sql`, `)})`
  } else throw invalid('$group _id is null, "$field" or {"name": "$field"}.')
  const outputs = Object.entries(accumulators).flatMap(([name, value]) => {
    if (!isValidName(name)) throw invalid(`"${String(name).slice(0, 80)}" in $group is no name.`)
    return [sql`${name}::text`, accumulator(name, value)]
  })
  // Parse answers the group's key as `objectId`.
  // The key is computed once below the grouping: the same expression written twice would differ
  // in its bound parameters, and PostgreSQL would not see them as one.
  const doc = sql`jsonb_build_object('objectId', s.k${outputs.length ? sql`, ` : sql``}${sql.join(outputs, sql`, `)})`
  return sql`select ${doc} as doc, row_number() over () as ord
    from (select s.doc, ${key} as k from (${from}) s) s group by s.k`
}

function sortStage(spec: unknown, from: SQL): SQL {
  if (!isObject(spec) || Object.keys(spec).length === 0 || Object.keys(spec).length > 5)
    throw invalid('$sort takes 1 to 5 fields, each 1 or -1.')
  const keys = Object.entries(spec).map(([name, direction]) => {
    if (!isValidName(name)) throw invalid(`"${String(name).slice(0, 80)}" in $sort is no field.`)
    if (direction !== 1 && direction !== -1) throw invalid('$sort takes 1 or -1 for each field.')
    return direction === 1 ? sql`${docField(name)} asc` : sql`${docField(name)} desc`
  })
  return sql`select s.doc, row_number() over (order by ${sql.join(keys, sql`, `)}, s.ord) as ord from (${from}) s`
}

function count(value: unknown, stage: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 1e9)
    throw invalid(`${stage} takes a whole number.`)
  return value
}

function projectStage(spec: unknown, from: SQL): SQL {
  if (!isObject(spec) || Object.keys(spec).length === 0)
    throw invalid('$project takes the fields to keep, e.g. {"name": 1}.')
  const kept: string[] = []
  const dropped: string[] = []
  for (const [name, flag] of Object.entries(spec)) {
    if (!isValidName(name)) throw invalid(`"${String(name).slice(0, 80)}" in $project is no field.`)
    if (flag === 1 || flag === true) kept.push(name)
    else if (flag === 0 || flag === false) dropped.push(name)
    else throw invalid('$project takes 1 (keep) or 0 (leave out) for each field.')
  }
  if (kept.length && dropped.some((name) => name !== 'objectId'))
    throw invalid('$project either keeps fields or leaves them out, not both.')
  const doc = kept.length
    ? sql`(select coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) from jsonb_each(s.doc) e
          where e.key = any(${sql`array[${sql.join(
            [...(dropped.includes('objectId') ? [] : ['objectId']), ...kept].map(
              (k) => sql`${k}::text`,
            ),
            sql`, `,
          )}]`}))`
    : sql`(s.doc - ${sql`array[${sql.join(
        dropped.map((k) => sql`${k}::text`),
        sql`, `,
      )}]`}::text[])`
  return sql`select ${doc} as doc, s.ord from (${from}) s`
}

const ISO_TIME = String.raw`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$`

/**
 * A `$match` after other stages: the query language on the documents they made. The documents
 * are presented as rows named and shaped like the objects table (`data`, `id`, the times), so
 * the query translator reads them as it reads stored objects.
 */
function laterMatch(spec: unknown, from: SQL): SQL {
  const where = translateWhere(parseWhere(spec)) ?? sql`true`
  // A time field is a column only when it still holds the ISO text the first stage gave it.
  const time = (name: string) =>
    sql`(case when s.doc ->> ${name}::text ~ ${ISO_TIME}::text
      then (s.doc ->> ${name}::text)::timestamptz end)`
  return sql`select ${objects}.data as doc, ${objects}.ord from (select s.doc as data, s.ord,
      s.doc ->> 'objectId' as id, ${time('createdAt')} as created_at,
      ${time('updatedAt')} as updated_at, null::text as owner_id from (${from}) s) ${objects}
    where ${where}`
}

/**
 * The statement of `pipeline` on the objects of `className` (every object: aggregates are the
 * master key's), answering one `doc` (JSON text) per row in order.
 */
export function aggregateStatement(className: string, pipeline: unknown): SQL {
  // One object of stages stands for them in its keys' order, as Parse Server reads it.
  if (isObject(pipeline)) pipeline = Object.entries(pipeline).map(([op, spec]) => ({ [op]: spec }))
  if (!Array.isArray(pipeline) || pipeline.length === 0 || pipeline.length > MAX_STAGES)
    throw invalid(`"pipeline" is a list of 1 to ${MAX_STAGES} stages.`)
  const stages = pipeline.map((stage) => {
    if (!isObject(stage) || Object.keys(stage).length !== 1)
      throw invalid('Each stage of "pipeline" is an object with one operator, e.g. {"$limit": 10}.')
    return Object.entries(stage)[0]!
  })
  const matches: SQL[] = []
  let i = 0
  for (; i < stages.length && stages[i]![0] === '$match'; i++) {
    const where = translateWhere(parseWhere(stages[i]![1]))
    if (where) matches.push(where)
  }
  let from: SQL = sql`select jsonb_build_object('objectId', ${objects.id},
      'createdAt', to_char(${objects.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'updatedAt', to_char(${objects.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      || ${objects.data} as doc,
    row_number() over (order by ${objects.createdAt}, ${objects.id}) as ord
    from ${objects} where ${and(sql`${objects.className} = ${className}`, ...matches)}`
  for (const [op, spec] of stages.slice(i)) {
    switch (op) {
      case '$match':
        from = laterMatch(spec, from)
        break
      case '$group':
        from = groupStage(spec, from)
        break
      case '$sort':
        from = sortStage(spec, from)
        break
      case '$skip':
        from = sql`select s.doc, s.ord from (${from}) s order by s.ord offset ${count(spec, '$skip')}`
        break
      case '$limit':
        from = sql`select s.doc, s.ord from (${from}) s order by s.ord limit ${count(spec, '$limit')}`
        break
      case '$project':
        from = projectStage(spec, from)
        break
      case '$count': {
        if (typeof spec !== 'string' || !isValidName(spec))
          throw invalid('$count takes the name of the field to count into.')
        from = sql`select jsonb_build_object(${spec}::text, count(*)) as doc, 1 as ord from (${from}) s`
        break
      }
      default:
        throw invalid(
          `${op.slice(0, 20)} is not a stage Portico runs: use $match, $group, $sort, $skip, $limit, $project or $count.`,
        )
    }
  }
  return sql`select s.doc::text as doc from (${from}) s order by s.ord limit ${MAX_RESULTS}`
}

/** The statement of the distinct values of `field` among the objects `where` selects. */
export function distinctStatement(
  className: string,
  field: string,
  condition: SQL | undefined,
): SQL {
  if (!isValidName(field)) throw invalid('"distinct" names a field.')
  const value = sql`(${objects.data} -> ${field}::text)`
  return sql`select distinct (${value})::text as doc from ${objects}
    where ${and(sql`${objects.className} = ${className}`, condition, sql`${value} is not null`)}
    limit ${MAX_RESULTS}`
}
