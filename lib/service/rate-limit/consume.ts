// Fixed-window request counters in the database, so limits hold across any number of instances.
// One statement counts the request in every window at once (and, for API credentials, checks in
// the same round trip that the client has not been revoked).
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/lib/db/client";

export interface RateWindow {
  seconds: number;
  limit: number;
}

export interface WindowState {
  seconds: number;
  limit: number;
  count: number;
  remaining: number;
  /** Unix time (s) at which this window resets. */
  reset: number;
}

export interface ConsumeResult {
  /** False when `activeClientId` was given and that client is unknown or revoked. */
  clientActive: boolean;
  allowed: boolean;
  /** The window that binds first: the exceeded one, else the one with the fewest requests left. */
  binding: WindowState;
  retryAfterSeconds: number;
}

export async function consume(
  db: Db,
  key: string,
  windows: RateWindow[],
  options: { activeClientId?: string; now?: number } = {},
): Promise<ConsumeResult> {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const values = sql.join(
    windows.map((w) => sql`(${w.seconds}::int, ${now - (now % w.seconds)}::bigint)`),
    sql`, `,
  );
  const source = options.activeClientId
    ? sql`from (values ${values}) as w(seconds, start)
          where exists (select 1 from api_clients where id = ${options.activeClientId} and revoked_at is null)`
    : sql`from (values ${values}) as w(seconds, start)`;
  const rows = await queryRows<{ window_seconds: number; window_start: string | number; count: number }>(
    db,
    sql`insert into rate_limit_counters (key, window_seconds, window_start, count)
        select ${key}, w.seconds, w.start, 1 ${source}
        on conflict (key, window_seconds, window_start)
        do update set count = rate_limit_counters.count + 1
        returning window_seconds, window_start, count`,
  );

  const counts = new Map(rows.map((r) => [Number(r.window_seconds), Number(r.count)]));
  return summarise(windows, counts, now, rows.length > 0);
}

/** The current counts of a key's windows, without counting a request. */
export async function peek(db: Db, key: string, windows: RateWindow[], options: { now?: number } = {}): Promise<WindowState[]> {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const current = sql.join(
    windows.map((w) => sql`(window_seconds = ${w.seconds} and window_start = ${now - (now % w.seconds)})`),
    sql` or `,
  );
  const rows = await queryRows<{ window_seconds: number; count: number }>(
    db,
    sql`select window_seconds, count from rate_limit_counters where key = ${key} and (${current})`,
  );
  return windowStates(windows, new Map(rows.map((r) => [Number(r.window_seconds), Number(r.count)])), now);
}

/** Each window's state from its count at `now` (Unix seconds). */
export function windowStates(windows: RateWindow[], counts: Map<number, number>, now: number): WindowState[] {
  return windows.map((w) => {
    const count = counts.get(w.seconds) ?? 0;
    const start = now - (now % w.seconds);
    return { seconds: w.seconds, limit: w.limit, count, remaining: Math.max(0, w.limit - count), reset: start + w.seconds };
  });
}

/** The limiter's answer from the counts of each window (after counting this request). */
export function summarise(windows: RateWindow[], counts: Map<number, number>, now: number, clientActive: boolean): ConsumeResult {
  const states = windowStates(windows, counts, now);
  const exceeded = states.filter((s) => s.count > s.limit).sort((a, b) => b.reset - a.reset);
  const binding =
    exceeded[0] ?? [...states].sort((a, b) => a.remaining - b.remaining || a.reset - b.reset)[0] ?? missingWindow();
  return {
    clientActive,
    allowed: clientActive && exceeded.length === 0,
    binding,
    retryAfterSeconds: Math.max(1, binding.reset - now),
  };
}

function missingWindow(): never {
  throw new Error("consume() needs at least one window");
}

export function rateLimitHeaders(state: WindowState): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(state.remaining),
    "X-RateLimit-Reset": String(state.reset),
  };
}

/** Drops counters of windows that ended long ago; run periodically by the worker. */
export async function pruneCounters(db: Db, olderThanSeconds = 2 * 3600): Promise<void> {
  const cutoff = Math.floor(Date.now() / 1000) - olderThanSeconds;
  await db.execute(sql`delete from rate_limit_counters where window_start < ${cutoff}`);
}
