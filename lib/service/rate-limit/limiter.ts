// Request counting, two ways with one contract:
// - PostgreSQL (any number of instances): counted in memory against leases of budget from the
//   shared counters, exact across instances, one statement per lease (leased-limiter.ts).
// - PGlite (one process by construction: its directory is locked): counts live in this process,
//   exact, and are written through to the same table every few seconds so a restart carries on
//   counting. This keeps a WebAssembly write off every request's path on the embedded default.
import { and, eq, sql } from "drizzle-orm";
import type { Database, Db, DatabaseKind } from "@/lib/db/client";
import { rateLimitCounters } from "@/lib/db/schema";
import { log } from "@/lib/log";
import { summarise, windowStates, type ConsumeResult, type RateWindow, type WindowState } from "./consume";
import { isClientActive, LeasedRateLimiter } from "./leased-limiter";

export interface RateLimiter {
  consume(key: string, windows: RateWindow[], options?: { activeClientId?: string }): Promise<ConsumeResult>;
  /** The windows' counts so far, without counting anything (e.g. to refuse before costly work). */
  peek(key: string, windows: RateWindow[]): Promise<WindowState[]>;
  /**
   * Whether an API client exists and is not revoked, for a request that counts against no limit
   * (an unlimited plan); `consume` answers this itself for every other request.
   */
  isClientActive(clientId: string): Promise<boolean>;
  /** Forget what is known about a client: it was just revoked. */
  clientRevoked(clientId: string): void;
  stop(): Promise<void>;
}

export function createRateLimiter(
  db: Db,
  kind: DatabaseKind,
  options: { flushMs?: number; listen?: Database["listen"]; /** Tests move time on. */ now?: () => number } = {},
): RateLimiter {
  return kind === "postgres" ? new LeasedRateLimiter(db, options.listen, options.now) : new LocalRateLimiter(db, options.flushMs ?? 2000);
}

interface Counter {
  count: number;
  persisted: number;
  expiresAt: number;
}

class LocalRateLimiter implements RateLimiter {
  private readonly counters = new Map<string, Counter>();
  private readonly loading = new Map<string, Promise<Counter>>();
  private readonly activeClients = new Map<string, Promise<boolean>>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    flushMs: number,
  ) {
    this.timer = setInterval(() => {
      this.flushing = this.flush().catch((error: unknown) => log.error("rate-limit flush failed", {}, error));
    }, flushMs);
    this.timer.unref();
  }

  isClientActive(clientId: string): Promise<boolean> {
    let known = this.activeClients.get(clientId);
    if (!known) {
      known = isClientActive(this.db, clientId);
      this.activeClients.set(clientId, known);
      if (this.activeClients.size > 50_000) this.activeClients.delete(this.activeClients.keys().next().value ?? "");
    }
    return known;
  }

  /** The counter of one window, continuing from the table the first time it is seen. */
  private counter(id: string, key: string, seconds: number, start: number): Counter | Promise<Counter> {
    const existing = this.counters.get(id);
    if (existing) return existing;
    let pending = this.loading.get(id);
    if (!pending) {
      pending = this.db
        .select({ count: rateLimitCounters.count })
        .from(rateLimitCounters)
        .where(and(eq(rateLimitCounters.key, key), eq(rateLimitCounters.windowSeconds, seconds), eq(rateLimitCounters.windowStart, start)))
        .then(([row]) => {
          const counter = { count: row?.count ?? 0, persisted: row?.count ?? 0, expiresAt: (start + seconds) * 1000 };
          this.counters.set(id, counter);
          this.loading.delete(id);
          return counter;
        });
      this.loading.set(id, pending);
    }
    return pending;
  }

  async consume(key: string, windows: RateWindow[], options: { activeClientId?: string } = {}): Promise<ConsumeResult> {
    const now = Math.floor(Date.now() / 1000);
    if (options.activeClientId && !(await this.isClientActive(options.activeClientId))) {
      return summarise(windows, new Map(), now, false);
    }
    const counts = new Map<number, number>();
    for (const w of windows) {
      const start = now - (now % w.seconds);
      const found = this.counter(`${key}|${w.seconds}|${start}`, key, w.seconds, start);
      const counter = found instanceof Promise ? await found : found;
      counter.count += 1;
      counts.set(w.seconds, counter.count);
    }
    return summarise(windows, counts, now, true);
  }

  async peek(key: string, windows: RateWindow[]): Promise<WindowState[]> {
    const now = Math.floor(Date.now() / 1000);
    const counts = new Map<number, number>();
    for (const w of windows) {
      const start = now - (now % w.seconds);
      const found = this.counter(`${key}|${w.seconds}|${start}`, key, w.seconds, start);
      counts.set(w.seconds, (found instanceof Promise ? await found : found).count);
    }
    return windowStates(windows, counts, now);
  }

  clientRevoked(clientId: string): void {
    this.activeClients.set(clientId, Promise.resolve(false));
  }

  private async flush(): Promise<void> {
    const now = Date.now();
    const dirty: { key: string; windowSeconds: number; windowStart: number; count: number }[] = [];
    for (const [id, counter] of this.counters) {
      if (counter.count !== counter.persisted) {
        const [key = "", seconds = "0", start = "0"] = splitId(id);
        dirty.push({ key, windowSeconds: Number(seconds), windowStart: Number(start), count: counter.count });
        counter.persisted = counter.count;
      }
      if (counter.expiresAt < now - 60_000) this.counters.delete(id);
    }
    if (dirty.length === 0) return;
    await this.db
      .insert(rateLimitCounters)
      .values(dirty)
      .onConflictDoUpdate({
        target: [rateLimitCounters.key, rateLimitCounters.windowSeconds, rateLimitCounters.windowStart],
        set: { count: sql`greatest(${rateLimitCounters.count}, excluded.count)` },
      });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flushing;
    await this.flush();
  }
}

/** Counter ids are `key|seconds|start`; the key itself may contain "|". */
function splitId(id: string): [string, string, string] {
  const parts = id.split("|");
  const start = parts.pop() ?? "0";
  const seconds = parts.pop() ?? "0";
  return [parts.join("|"), seconds, start];
}
