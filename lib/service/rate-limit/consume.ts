// The shared fixed-window counters (rate_limit_counters) and the limiter's answer from counts:
// windows, the binding window, Retry-After and the X-RateLimit-* headers. Counting itself is in
// limiter.ts (in this process on PGlite) and leased-limiter.ts (leases of budget on PostgreSQL).
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
  return windows.map((w) => windowState(w, counts.get(w.seconds) ?? 0, now));
}

function windowState(w: RateWindow, count: number, now: number): WindowState {
  const start = now - (now % w.seconds);
  return { seconds: w.seconds, limit: w.limit, count, remaining: Math.max(0, w.limit - count), reset: start + w.seconds };
}

/**
 * The limiter's answer from the counts of each window (after counting this request). The binding
 * window is the exceeded one that resets last, else the one with the fewest requests left (the
 * sooner reset on a tie), the earlier in `windows` on a full tie. One pass: it runs per request.
 */
export function summarise(windows: RateWindow[], counts: Map<number, number>, now: number, clientActive: boolean): ConsumeResult {
  let exceeded: WindowState | undefined;
  let tightest: WindowState | undefined;
  for (const w of windows) {
    const state = windowState(w, counts.get(w.seconds) ?? 0, now);
    if (state.count > state.limit && (!exceeded || state.reset > exceeded.reset)) exceeded = state;
    if (!tightest || state.remaining < tightest.remaining || (state.remaining === tightest.remaining && state.reset < tightest.reset)) tightest = state;
  }
  const binding = exceeded ?? tightest ?? missingWindow();
  return {
    clientActive,
    allowed: clientActive && exceeded === undefined,
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
