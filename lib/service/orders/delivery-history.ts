// The service's own history near a set of places, read in one statement for all of them: the
// order locations delivered within MAX_ESTIMATE_RADIUS_KM (hours from the task opening — its
// dispatch, or its window's start when later — to the location's delivery, retakes included) and
// the contributors who sent a photo within that radius in the last ACTIVE_ZOOMER_DAYS days.
import { sql, type SQL } from "drizzle-orm";
import { queryPrepared, type Db } from "@/lib/db/client";
import {
  ACTIVE_ZOOMER_DAYS,
  ESTIMATE_RADII_KM,
  HISTORY_DAYS,
  MAX_ESTIMATE_RADIUS_KM,
  MAX_SIMILAR_TASKS,
  type NearbyZoomer,
  type PastTask,
} from "@/lib/orders/delivery-estimate";

export interface PlaceHistory {
  /** Newest delivery first. */
  tasks: PastTask[];
  zoomers: NearbyZoomer[];
}

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = 111.2;
const DAY_MS = 86_400_000;
const NARROW_KM = ESTIMATE_RADII_KM[0];

/** Great-circle distance in km between two points given as SQL expressions (haversine). */
function distanceKm(lat1: SQL, lng1: SQL, lat2: SQL, lng2: SQL): SQL {
  return sql`(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1, sqrt(
    power(sin(radians(${lat2} - ${lat1}) / 2), 2)
    + cos(radians(${lat1})) * cos(radians(${lat2})) * power(sin(radians(${lng2} - ${lng1}) / 2), 2)))))`;
}

/** Inside the place's bounding box of the radius (across the antimeridian too): lets the planner skip most rows cheaply. */
function nearBox(lat: SQL, lng: SQL): SQL {
  return sql`${lat} between l.lat - l.dlat and l.lat + l.dlat and (abs(${lng} - l.lng) <= l.dlng or abs(${lng} - l.lng) >= 360 - l.dlng)`;
}

const floatArray = (values: number[]) => `{${values.map((v) => String(v)).join(",")}}`;

/**
 * The history near each of `places`, in their order. At most MAX_SIMILAR_TASKS of the newest
 * deliveries within the narrow radius and as many beyond it per place, so an order of hundreds of
 * locations in a busy city reads a bounded number of rows.
 */
export async function readDeliveryHistory(db: Db, { places, now }: { places: { lat: number; lng: number }[]; now: Date }): Promise<PlaceHistory[]> {
  const out: PlaceHistory[] = places.map(() => ({ tasks: [], zoomers: [] }));
  if (places.length === 0) return out;
  const since = new Date(now.getTime() - HISTORY_DAYS * DAY_MS).toISOString();
  const activeSince = new Date(now.getTime() - ACTIVE_ZOOMER_DAYS * DAY_MS).toISOString();
  const reach = MAX_ESTIMATE_RADIUS_KM / KM_PER_DEGREE;
  const band = { south: Math.min(...places.map((p) => p.lat)) - reach, north: Math.max(...places.map((p) => p.lat)) + reach };
  const place = { lat: sql`l.lat`, lng: sql`l.lng` };
  const taskKm = distanceKm(place.lat, place.lng, sql`d.lat`, sql`d.lng`);
  const zoomerKm = distanceKm(place.lat, place.lng, sql`s.lat`, sql`s.lng`);
  // Prepared: PostgreSQL plans this statement in several times the time it takes to run it (on
  // PGlite 7 ms against 0.4 ms), and every quote, feasibility answer and order asks it.
  const rows = await queryPrepared<{
    kind: "task" | "zoomer";
    idx: number;
    id: string;
    hours: number | string | null;
    km: number | string;
    at: number | string | null;
  }>(
    db,
    "delivery_history",
    sql`with locs as (
        select (t.i - 1)::int as idx, t.lat, t.lng,
          ${MAX_ESTIMATE_RADIUS_KM / KM_PER_DEGREE}::float8 as dlat,
          least(180, ${MAX_ESTIMATE_RADIUS_KM}::float8 / (${KM_PER_DEGREE}::float8 * greatest(cos(radians(t.lat)), 0.001)))::float8 as dlng
        from unnest(${floatArray(places.map((p) => p.lat))}::float8[], ${floatArray(places.map((p) => p.lng))}::float8[]) with ordinality as t(lat, lng, i)
      ),
      delivered as materialized (
        select m.id, a.lat, a.lng, m.completed_at,
          greatest(0, extract(epoch from (m.completed_at - a.opened)) / 3600.0)::float8 as hours
        from missions m
        join lateral (
          select min(x.lat) as lat, min(x.lng) as lng, min(greatest(x.created_at, coalesce(x.window_start, x.created_at))) as opened
          from assignments x where x.mission_id = m.id and x.attempt = 0
        ) a on a.opened is not null
        where m.order_id is not null and m.status = 'completed' and m.completed_at >= ${since}::timestamptz
          -- The band of latitudes the places' radii cover: history elsewhere is not timed at all.
          and m.max_lat >= ${band.south}::float8 and m.min_lat <= ${band.north}::float8
      ),
      near as (
        select l.idx, d.id, d.hours, d.completed_at, ${taskKm} as km
        from locs l join delivered d on ${nearBox(sql`d.lat`, sql`d.lng`)}
      ),
      ranked as (
        select near.*, row_number() over (partition by idx, km <= ${NARROW_KM}::float8 order by completed_at desc, id) as rn
        from near where km <= ${MAX_ESTIMATE_RADIUS_KM}::float8
      ),
      active as (
        select s.zoomer_id, coalesce(s.lat, (m.min_lat + m.max_lat) / 2) as lat, coalesce(s.lng, (m.min_lng + m.max_lng) / 2) as lng
        from submissions s join missions m on m.id = s.mission_id
        where s.created_at >= ${activeSince}::timestamptz
      )
      select 'task' as kind, idx, id, hours, km, extract(epoch from completed_at)::float8 as at from ranked where rn <= ${MAX_SIMILAR_TASKS}::int
      union all
      select 'zoomer' as kind, l.idx, s.zoomer_id as id, null, min(${zoomerKm}) as km, null
      from locs l join active s on ${nearBox(sql`s.lat`, sql`s.lng`)}
      group by l.idx, s.zoomer_id
      having min(${zoomerKm}) <= ${MAX_ESTIMATE_RADIUS_KM}::float8`,
  );
  const at = new Map<string, number>();
  for (const row of rows) {
    const target = out[Number(row.idx)];
    if (!target) continue;
    if (row.kind === "task") {
      target.tasks.push({ id: row.id, hours: Number(row.hours), distanceKm: Number(row.km) });
      at.set(`${row.idx}|${row.id}`, Number(row.at));
    } else target.zoomers.push({ id: row.id, distanceKm: Number(row.km) });
  }
  out.forEach((history, idx) => history.tasks.sort((a, b) => (at.get(`${idx}|${b.id}`) ?? 0) - (at.get(`${idx}|${a.id}`) ?? 0)));
  return out;
}
