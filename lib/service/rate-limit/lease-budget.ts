// Leases of request budget from the shared counters (rate_limit_counters): an instance takes up to
// `want` requests of a window at once and counts them in memory, so the database sees one
// statement per lease, not one per request. The counter holds every request leased out (used or
// not yet), and a lease is granted only from what is left under the limit, so the instances
// together never allow more than the limit; what an instance does not use it gives back.
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";

export interface LeaseRequest {
  seconds: number;
  /** Unix time (s) at which the window started. */
  start: number;
  limit: number;
  /** Requests asked for (≥ 1). */
  want: number;
}

export interface LeaseGrant {
  seconds: number;
  /** Requests granted: min(want, what was left under the limit), possibly 0. */
  granted: number;
  /** The window's counter after the grant: every request leased out so far, by any instance. */
  count: number;
}

/**
 * Leases budget of every window of `key` in one round trip, or none when `activeClientId` is given
 * and that client is unknown or revoked (then null). The rows are locked while the grant is
 * computed, so concurrent leases from several instances never grant more than the limit.
 */
export async function leaseBudget(db: Db, key: string, requests: LeaseRequest[], options: { activeClientId?: string } = {}): Promise<LeaseGrant[] | null> {
  const values = sql.join(
    requests.map((r) => sql`(${r.seconds}::int, ${r.start}::bigint, ${r.limit}::int, ${r.want}::int)`),
    sql`, `,
  );
  const active = options.activeClientId ? sql`exists (select 1 from api_clients where id = ${options.activeClientId} and revoked_at is null)` : sql`true`;
  // One statement: a window seen for the first time is inserted with its grant; an existing one is
  // granted from under a row lock (`for update` reads the latest committed count, also after
  // waiting for a concurrent lease). A window whose row another instance inserted after this
  // statement's snapshot is in neither: it is missing from the answer, and the caller asks again.
  const rows = await queryRows<{ window_seconds: number | null; granted: number | null; count: number | null; active: boolean }>(
    db,
    sql`with w(seconds, start, lim, want) as (values ${values}),
        ok as (select ${active} as active),
        cur as (
          select c.window_seconds, c.count, least(w.want, greatest(0, w.lim - c.count)) as granted
          from rate_limit_counters c join w on c.window_seconds = w.seconds and c.window_start = w.start
          where c.key = ${key} and (select active from ok)
          for update of c
        ),
        upd as (
          update rate_limit_counters r set count = r.count + cur.granted
          from cur, w
          where r.key = ${key} and r.window_seconds = cur.window_seconds and w.seconds = cur.window_seconds
            and r.window_start = w.start and cur.granted > 0
          returning r.window_seconds
        ),
        ins as (
          insert into rate_limit_counters (key, window_seconds, window_start, count)
          select ${key}, w.seconds, w.start, least(w.want, w.lim) from w where (select active from ok)
          on conflict (key, window_seconds, window_start) do nothing
          returning window_seconds, count
        ),
        grants as (
          select window_seconds, granted, count + granted as count from cur
          union all
          select window_seconds, count as granted, count from ins
        )
        select g.window_seconds, g.granted, g.count, ok.active
        from ok left join grants g on true`,
  );
  if (!rows[0]?.active) return null;
  return rows.flatMap((r) => (r.window_seconds === null ? [] : [{ seconds: Number(r.window_seconds), granted: Number(r.granted), count: Number(r.count) }]));
}

/** Gives back requests leased and not used (the window is still running, so others may use them). */
export async function returnBudget(db: Db, key: string, returns: { seconds: number; start: number; unused: number }[]): Promise<void> {
  for (const r of returns) {
    if (r.unused <= 0) continue;
    await db.execute(
      sql`update rate_limit_counters set count = greatest(0, count - ${r.unused})
          where key = ${key} and window_seconds = ${r.seconds} and window_start = ${r.start}`,
    );
  }
}
