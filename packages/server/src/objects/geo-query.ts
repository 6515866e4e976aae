import { asc, sql, type SQL } from 'drizzle-orm'
import { objects } from '../db/schema.ts'
import type { Condition } from './condition.ts'
import type { GeoTest, LatLng } from './geo-condition.ts'

// The geo operators (geo-condition.ts) in SQL on the stored jsonb values, without PostGIS (which
// neither the embedded database nor a stock PostgreSQL has). Distances are great-circle angles
// by the haversine formula, in radians as Parse Server compares them; boxes and polygons are flat
// in (longitude, latitude), as Parse Server's PostgreSQL adapter tests them with PostgreSQL's
// own geometric types (`point <@ box`, `point <@ polygon`, `polygon @> point`), which are core
// PostgreSQL and used here too: edges and corners count as inside.
// Every number is a bound parameter; a value that is not a GeoPoint (or Polygon) matches nothing.

const field = (name: string): SQL => sql`(${objects.data} -> ${name}::text)`
const float = (value: number): SQL => sql`${value}::float8`

/**
 * `make(latitude, longitude)` of the field's GeoPoint (its coordinates in degrees), or NULL when
 * the field holds no GeoPoint. The CASE makes the type checks run before the casts (stored
 * GeoPoints always pass them: wire.ts); the NULL is decided here, once, because PostgreSQL's
 * `least` and `greatest` skip NULLs.
 */
function ofGeoPoint(f: SQL, make: (latitude: SQL, longitude: SQL) => SQL): SQL {
  const latitude = sql`(${f} -> 'latitude')::float8`
  const longitude = sql`(${f} -> 'longitude')::float8`
  return sql`(case when ${f} ->> '__type' = 'GeoPoint' and jsonb_typeof(${f} -> 'latitude') = 'number' and jsonb_typeof(${f} -> 'longitude') = 'number' then ${make(latitude, longitude)} end)`
}

/** The field's GeoPoint as a PostgreSQL point (x longitude, y latitude), or NULL. */
const storedPoint = (name: string): SQL =>
  ofGeoPoint(field(name), (latitude, longitude) => sql`point(${longitude}, ${latitude})`)

/** The great-circle angle in radians between the field's GeoPoint and `to` (NULL without one). */
function angleTo(name: string, to: LatLng): SQL {
  const toLatitude = float(to.latitude)
  // least(): rounding may take the haversine a hair past 1, where asin is undefined.
  return ofGeoPoint(
    field(name),
    (latitude, longitude) => sql`2 * asin(least(1, sqrt(
      power(sin(radians(${latitude} - ${toLatitude}) / 2), 2)
      + cos(radians(${latitude})) * cos(radians(${toLatitude}))
        * power(sin(radians(${longitude} - ${float(to.longitude)}) / 2), 2))))`,
  )
}

/** A PostgreSQL polygon of points given as (longitude, latitude). */
function polygonOf(points: LatLng[]): SQL {
  const text = `(${points.map((p) => `(${p.longitude},${p.latitude})`).join(',')})`
  return sql`${text}::polygon`
}

/**
 * The field's Polygon (stored as [latitude, longitude] pairs, see wire.ts) as a PostgreSQL
 * polygon, or NULL when the field holds no Polygon.
 */
function storedPolygon(name: string): SQL {
  const f = field(name)
  return sql`(case when ${f} ->> '__type' = 'Polygon' and jsonb_typeof(${f} -> 'coordinates') = 'array' then (
    select ('(' || string_agg('(' || (pair ->> 1) || ',' || (pair ->> 0) || ')', ',' order by n) || ')')::polygon
    from jsonb_array_elements(${f} -> 'coordinates') with ordinality as points(pair, n)) end)`
}

/** One geo test on a document field, as an SQL condition. */
export function geoCondition(name: string, test: GeoTest): SQL {
  switch (test.op) {
    case '$nearSphere':
      return test.maxDistance === undefined
        ? sql`${angleTo(name, test.point)} is not null`
        : sql`${angleTo(name, test.point)} <= ${float(test.maxDistance)}`
    case '$centerSphere':
      return sql`${angleTo(name, test.center)} <= ${float(test.radians)}`
    case '$box': {
      const { southwest, northeast } = test
      // PostgreSQL orders a box's corners itself, as Parse Server's adapter relies on.
      return sql`${storedPoint(name)} <@ box(point(${float(southwest.longitude)}, ${float(southwest.latitude)}), point(${float(northeast.longitude)}, ${float(northeast.latitude)}))`
    }
    case '$polygon':
      return sql`${storedPoint(name)} <@ ${polygonOf(test.points)}`
    case '$geoIntersects':
      return sql`${storedPolygon(name)} @> point(${float(test.point.longitude)}, ${float(test.point.latitude)})`
  }
}

/** The `$nearSphere` terms at the top of a `where`, in the order written. */
function nearTerms(condition: Condition | undefined) {
  const near: { field: string; point: LatLng }[] = []
  for (const term of condition?.terms ?? []) {
    if (term.kind === 'field' && term.test.op === '$nearSphere')
      near.push({ field: term.field, point: term.test.point })
  }
  return near
}

/**
 * The order a `where` asks for itself when no `order` is given: nearest first by each
 * `$nearSphere` at its top (nested in `$or`/`$and` they only filter), as Parse Server sorts.
 */
export function nearestFirst(condition: Condition | undefined): SQL[] {
  return nearTerms(condition).map((near) => asc(angleTo(near.field, near.point)))
}
