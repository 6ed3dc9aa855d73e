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

/** A key's counters of its current windows, so a request finds them with one lookup. */
interface Current {
  windows: RateWindow[];
  counters: Counter[];
  /** Unix time (s) at which the first of these windows ends: the counters are current before it. */
  until: number;
}

class LocalRateLimiter implements RateLimiter {
  private readonly counters = new Map<string, Counter>();
  private readonly loading = new Map<string, Promise<Counter>>();
  /** Per key (`windows` as a budget passes them, made once per budget): its current windows' counters. */
  private readonly current = new Map<string, Current>();
  private readonly activeClients = new Map<string, Promise<boolean>>();
  /** The answers of `activeClients` once known, read without waiting. */
  private readonly knownActive = new Map<string, boolean>();
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
      const asked = isClientActive(this.db, clientId);
      known = asked;
      this.activeClients.set(clientId, asked);
      // Kept only while still the answer: a revocation meanwhile has replaced it. A failed lookup
      // is forgotten, so the next request asks again (this one fails with the error).
      asked.then(
        (active) => this.activeClients.get(clientId) === asked && this.knownActive.set(clientId, active),
        () => this.activeClients.get(clientId) === asked && this.activeClients.delete(clientId),
      );
      if (this.activeClients.size > 50_000) {
        const oldest = this.activeClients.keys().next().value ?? "";
        this.activeClients.delete(oldest);
        this.knownActive.delete(oldest);
      }
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
        })
        .catch((error: unknown) => {
          this.loading.delete(id); // the next request asks again
          throw error;
        });
      this.loading.set(id, pending);
    }
    return pending;
  }

  consume(key: string, windows: RateWindow[], options: { activeClientId?: string } = {}): Promise<ConsumeResult> {
    const now = Math.floor(Date.now() / 1000);
    const clientId = options.activeClientId;
    if (clientId) {
      const known = this.knownActive.get(clientId);
      if (known === undefined) {
        return this.isClientActive(clientId).then((active) => (active ? this.count(key, windows, now) : summarise(windows, new Map(), now, false)));
      }
      if (!known) return Promise.resolve(summarise(windows, new Map(), now, false));
    }
    return this.count(key, windows, now);
  }

  /** Counts one request in each window of `key`. */
  private async count(key: string, windows: RateWindow[], now: number): Promise<ConsumeResult> {
    const found = this.currentCounters(key, windows, now);
    const counters = found instanceof Promise ? await found : found;
    const counts = new Map<number, number>();
    windows.forEach((w, i) => {
      const counter = counters[i];
      if (!counter) return;
      counter.count += 1;
      counts.set(w.seconds, counter.count);
    });
    return summarise(windows, counts, now, true);
  }

  /** The counters of `key`'s windows at `now`: the kept ones while every window is the same, else looked up (and kept). */
  private currentCounters(key: string, windows: RateWindow[], now: number): Counter[] | Promise<Counter[]> {
    const kept = this.current.get(key);
    if (kept && kept.windows === windows && now < kept.until) return kept.counters;
    let until = Infinity;
    const found = windows.map((w) => {
      const start = now - (now % w.seconds);
      until = Math.min(until, start + w.seconds);
      return this.counter(`${key}|${w.seconds}|${start}`, key, w.seconds, start);
    });
    const keep = (counters: Counter[]) => {
      this.current.set(key, { windows, counters, until });
      return counters;
    };
    return found.some((f) => f instanceof Promise) ? Promise.all(found).then(keep) : keep(found.filter((f): f is Counter => !(f instanceof Promise)));
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
    this.knownActive.set(clientId, false);
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
    for (const [key, kept] of this.current) if (kept.until * 1000 < now - 60_000) this.current.delete(key);
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
