// The service's own history near a set of places: the order locations delivered within
// MAX_ESTIMATE_RADIUS_KM (hours from the task opening — its dispatch, or its window's start when
// later — to the location's delivery, retakes included) and the contributors who sent a photo
// within that radius in the last ACTIVE_ZOOMER_DAYS days.
//
// One statement reads the candidates: every delivery and recent submission inside some place's
// bounding box of the radius, once each, with comparisons alone. The distances, the radius and
// each place's newest MAX_SIMILAR_TASKS are then worked out in JavaScript (nearby-history.ts).
// In SQL, every pair of place and candidate cost PGlite's interpreter microseconds of trigonometry,
// again in each clause that named the distance: with the demo's 92 deliveries near three places,
// a read took 6–14 ms there against 3–5 ms now, and every quote, feasibility answer and order
// makes one. The rows sent are the deliveries of the last HISTORY_DAYS days around the places
// (the 500-per-place cap is applied here, not in the statement): the pairs the statement used to
// rank were the same rows times the places.
import { sql, type SQL } from "drizzle-orm";
import { queryPrepared, type Db } from "@/lib/db/client";
import { ACTIVE_ZOOMER_DAYS, HISTORY_DAYS } from "@/lib/orders/delivery-estimate";
import { boxOf, nearbyHistory, REACH_DEG, type DeliveredCandidate, type PlaceHistory, type Place, type SubmissionCandidate } from "./nearby-history";

const DAY_MS = 86_400_000;

const floatArray = (values: number[]) => `{${values.map((v) => String(v)).join(",")}}`;

/** The history near each of `places`, in their order (see nearbyHistory). */
export async function readDeliveryHistory(db: Db, { places, now }: { places: Place[]; now: Date }): Promise<PlaceHistory[]> {
  if (places.length === 0) return [];
  const since = new Date(now.getTime() - HISTORY_DAYS * DAY_MS).toISOString();
  const activeSince = new Date(now.getTime() - ACTIVE_ZOOMER_DAYS * DAY_MS).toISOString();
  const band = { south: Math.min(...places.map((p) => p.lat)) - REACH_DEG, north: Math.max(...places.map((p) => p.lat)) + REACH_DEG };
  const nearSome = (lat: SQL, lng: SQL) =>
    sql`exists (select 1 from locs l where ${lat} between l.lat - l.dlat and l.lat + l.dlat and (abs(${lng} - l.lng) <= l.dlng or abs(${lng} - l.lng) >= 360 - l.dlng))`;
  // Prepared: PostgreSQL plans this statement in more time than it takes to run it, and every
  // quote, feasibility answer and order asks it.
  const rows = await queryPrepared<{
    kind: "task" | "zoomer";
    id: string;
    lat: number | string;
    lng: number | string;
    hours: number | string | null;
    at: number | string | null;
  }>(
    db,
    "delivery_candidates",
    sql`with locs as (
        select t.lat, t.lng, ${REACH_DEG}::float8 as dlat, t.dlng
        from unnest(${floatArray(places.map((p) => p.lat))}::float8[], ${floatArray(places.map((p) => p.lng))}::float8[],
          ${floatArray(places.map((p) => boxOf(p).dlng))}::float8[]) as t(lat, lng, dlng)
      ),
      delivered as (
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
      active as (
        select distinct s.zoomer_id, coalesce(s.lat, (m.min_lat + m.max_lat) / 2) as lat, coalesce(s.lng, (m.min_lng + m.max_lng) / 2) as lng
        from submissions s join missions m on m.id = s.mission_id
        where s.created_at >= ${activeSince}::timestamptz
      )
      select 'task' as kind, d.id, d.lat, d.lng, d.hours, extract(epoch from d.completed_at)::float8 as at
      from delivered d where ${nearSome(sql`d.lat`, sql`d.lng`)}
      union all
      select 'zoomer' as kind, s.zoomer_id, s.lat, s.lng, null, null
      from active s where ${nearSome(sql`s.lat`, sql`s.lng`)}`,
  );
  const delivered: DeliveredCandidate[] = [];
  const submissions: SubmissionCandidate[] = [];
  for (const row of rows) {
    if (row.kind === "task") delivered.push({ id: row.id, lat: Number(row.lat), lng: Number(row.lng), hours: Number(row.hours), at: Number(row.at) });
    else submissions.push({ zoomerId: row.id, lat: Number(row.lat), lng: Number(row.lng) });
  }
  return nearbyHistory(places, delivered, submissions);
}
