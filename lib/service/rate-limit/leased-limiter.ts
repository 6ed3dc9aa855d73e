// The PostgreSQL limiter (any number of instances): requests are counted in memory against leases
// of budget taken from the shared counters (lease-budget.ts), one statement per lease instead of a
// database write per request. Exact across instances: the counters hold every request leased out,
// no lease goes past the limit, and unused budget is given back when a lease has sat idle, so all
// instances together allow exactly the limit. Leases shrink as a window fills (1/LEASE_SHARE of
// what is left, at least 1, at most MAX_LEASE), so near the limit instances hold only a few
// requests each and every one of them is used. A small limit (under 2 × LEASE_SHARE per window,
// e.g. 60 a minute) is counted one request per statement, as before: its writes are bounded by
// the limit, not by the traffic (a spent window refuses from memory), and X-RateLimit-Remaining
// stays exact across instances. With leases it is exact on one instance and, across several, a
// lower bound: budget another instance leased and has not used yet counts as spent.
//
// Revocation without a read per request: what is known about each client (active or revoked) is
// kept in memory only while this instance LISTENs for revocations (every revocation NOTIFYs
// `api_client_revoked` at commit, lib/service/accounts/revoke-client.ts). The instance that revoked
// refuses at once; every other one as soon as PostgreSQL delivers the NOTIFY (milliseconds). A
// client known active is asked about again after CREDENTIAL_TTL_MS, the bound API keys have too, so
// a notification lost without the connection reporting it (a half-open socket) cannot keep a
// revoked client working for longer. While that connection is down, every request checks the
// client in the database, as before.
import { and, eq, isNull } from "drizzle-orm";
import type { Database, Db } from "@/lib/db/client";
import { apiClients } from "@/lib/db/schema";
import { log } from "@/lib/log";
import { CREDENTIAL_TTL_MS } from "@/lib/service/credentials/credential-cache";
import { peek, summarise, type ConsumeResult, type RateWindow, type WindowState } from "./consume";
import { leaseBudget, returnBudget } from "./lease-budget";

export const CLIENT_REVOKED_CHANNEL = "api_client_revoked";
const MAX_LEASE = 1000;
const LEASE_SHARE = 64;
/** A lease unused for this long gives its budget back, so other instances can spend it. */
const IDLE_RETURN_MS = 1000;
/** After a window was found spent, refuse from memory for this long before asking again. */
const SPENT_RECHECK_MS = 250;

interface WindowLease {
  key: string;
  seconds: number;
  start: number;
  limit: number;
  /** Leased to this instance and not used yet. */
  available: number;
  /** The shared counter at this instance's last lease (all instances' leases). */
  count: number;
  lastUsed: number;
  /** Until when (ms) the window is known to be spent. */
  spentUntil: number;
}

// A RateLimiter (./limiter.ts, whose createRateLimiter returns it as one; not imported here, which
// would close a circle with the file that constructs this class).
export class LeasedRateLimiter {
  private readonly leases = new Map<string, WindowLease>();
  /** One lease statement at a time per key; concurrent requests wait for it. */
  private readonly leasing = new Map<string, Promise<void>>();
  /** Clients known active, while listening, until `expiresAt` (a revocation's NOTIFY adds the client to `revoked`). */
  private readonly clients = new Map<string, { active: Promise<boolean>; expiresAt: number }>();
  private readonly revoked = new Set<string>();
  private listening = false;
  private stopListening: (() => Promise<void>) | undefined;
  private readonly timer: NodeJS.Timeout;
  private returning: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    listen: Database["listen"],
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => {
      this.returning = this.returnIdle(Date.now() - IDLE_RETURN_MS).catch((error: unknown) => log.error("rate-limit lease return failed", {}, error));
    }, IDLE_RETURN_MS);
    this.timer.unref();
    if (listen) {
      void listen(
        CLIENT_REVOKED_CHANNEL,
        (clientId) => this.clientRevoked(clientId),
        (listening) => {
          // Whatever was learnt before a gap may be stale: start again from the database.
          if (!listening || !this.listening) this.clients.clear();
          this.listening = listening;
        },
      )
        .then((stop) => (this.stopListening = stop))
        .catch((error: unknown) => log.warn("cannot LISTEN for revocations; checking clients per request", {}, error));
    }
  }

  isClientActive(clientId: string): Promise<boolean> {
    // Revocation is for good: a client known revoked stays refused, listening or not.
    if (this.revoked.has(clientId)) return Promise.resolve(false);
    if (!this.listening) return isClientActive(this.db, clientId);
    const known = this.clients.get(clientId);
    if (known && known.expiresAt > this.now()) return known.active;
    const active = isClientActive(this.db, clientId);
    this.clients.delete(clientId);
    this.clients.set(clientId, { active, expiresAt: this.now() + CREDENTIAL_TTL_MS });
    if (this.clients.size > 50_000) this.clients.delete(this.clients.keys().next().value ?? "");
    return active;
  }

  clientRevoked(clientId: string): void {
    this.revoked.add(clientId);
    this.clients.delete(clientId);
    if (this.revoked.size > 50_000) this.revoked.delete(this.revoked.values().next().value ?? "");
  }

  async consume(key: string, windows: RateWindow[], options: { activeClientId?: string } = {}): Promise<ConsumeResult> {
    const nowMs = Date.now();
    const now = Math.floor(nowMs / 1000);
    if (options.activeClientId && !(await this.isClientActive(options.activeClientId))) {
      return summarise(windows, new Map(), now, false);
    }
    const leases = windows.map((w) => this.lease(key, w, now));
    for (let ownLeases = 0; ;) {
      const spent = leases.filter((l) => l.available === 0 && l.spentUntil > nowMs);
      if (spent.length > 0) return this.answer(windows, leases, now, spent);
      if (leases.every((l) => l.available > 0)) {
        for (const l of leases) {
          l.available -= 1;
          l.lastUsed = nowMs;
        }
        return this.answer(windows, leases, now, []);
      }
      // A window with nothing leased: lease for all that are short, one statement for every
      // request waiting here. A lease answer without a window (its row was inserted by another
      // instance meanwhile) is asked again, a few times.
      if (ownLeases > 4)
        return this.answer(
          windows,
          leases,
          now,
          leases.filter((l) => l.available === 0),
        );
      const outcome = await this.refill(
        key,
        leases.filter((l) => l.available === 0),
        options.activeClientId,
      );
      if (outcome === "inactive") {
        if (options.activeClientId) this.clientRevoked(options.activeClientId);
        return summarise(windows, new Map(), now, false);
      }
      if (outcome === "leased") ownLeases += 1;
    }
  }

  async peek(key: string, windows: RateWindow[]): Promise<WindowState[]> {
    // The shared counters count leases, not requests: what this instance leased and has not used
    // is not spent yet.
    const now = Math.floor(Date.now() / 1000);
    const states = await peek(this.db, key, windows);
    return states.map((s) => {
      const unused = this.leases.get(leaseId(key, s.seconds, now - (now % s.seconds)))?.available ?? 0;
      const count = Math.max(0, s.count - unused);
      return { ...s, count, remaining: Math.max(0, s.limit - count) };
    });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.returning;
    await this.returnIdle(Infinity);
    await this.stopListening?.();
  }

  private lease(key: string, window: RateWindow, now: number): WindowLease {
    const start = now - (now % window.seconds);
    const id = leaseId(key, window.seconds, start);
    let lease = this.leases.get(id);
    if (!lease) {
      lease = { key, seconds: window.seconds, start, limit: window.limit, available: 0, count: 0, lastUsed: 0, spentUntil: 0 };
      this.leases.set(id, lease);
    }
    return lease;
  }

  /** Leases budget for `short` windows, or waits for the lease statement of `key` already running. */
  private async refill(key: string, short: WindowLease[], activeClientId: string | undefined): Promise<"leased" | "waited" | "inactive"> {
    const pending = this.leasing.get(key);
    if (pending) {
      await pending;
      return "waited"; // the waiting request looks at the leases again
    }
    let active = true;
    const run = (async () => {
      const requests = short.map((l) => ({
        seconds: l.seconds,
        start: l.start,
        limit: l.limit,
        want: Math.max(1, Math.min(MAX_LEASE, Math.floor((l.limit - l.count) / LEASE_SHARE))),
      }));
      const grants = await leaseBudget(this.db, key, requests, { activeClientId });
      if (grants === null) {
        active = false;
        return;
      }
      const now = Date.now();
      for (const grant of grants) {
        const lease = short.find((l) => l.seconds === grant.seconds);
        if (!lease) continue;
        lease.available += grant.granted;
        lease.count = grant.count;
        lease.spentUntil = grant.granted === 0 ? now + SPENT_RECHECK_MS : 0;
      }
    })();
    this.leasing.set(key, run);
    try {
      await run;
    } finally {
      this.leasing.delete(key);
    }
    return active ? "leased" : "inactive";
  }

  /** The answer, counting for each window what is known to be spent: all leased out, less what this instance has not used. */
  private answer(windows: RateWindow[], leases: WindowLease[], now: number, exceeded: WindowLease[]): ConsumeResult {
    const counts = new Map<number, number>();
    for (const l of leases) counts.set(l.seconds, exceeded.includes(l) ? l.limit + 1 : Math.min(l.limit, l.count - l.available));
    return summarise(windows, counts, now, true);
  }

  private async returnIdle(idleSince: number): Promise<void> {
    const nowMs = Date.now();
    const byKey = new Map<string, { seconds: number; start: number; unused: number }[]>();
    for (const [id, lease] of this.leases) {
      const ended = (lease.start + lease.seconds) * 1000 <= nowMs;
      if (ended) {
        this.leases.delete(id); // a finished window's unused budget is of no use to anyone
        continue;
      }
      if (lease.available === 0 || lease.lastUsed > idleSince || this.leasing.has(lease.key)) continue;
      const list = byKey.get(lease.key) ?? [];
      list.push({ seconds: lease.seconds, start: lease.start, unused: lease.available });
      byKey.set(lease.key, list);
      lease.count -= lease.available;
      lease.available = 0;
    }
    for (const [key, returns] of byKey) await returnBudget(this.db, key, returns);
  }
}

function leaseId(key: string, seconds: number, start: number): string {
  return `${key}|${seconds}|${start}`;
}

export function isClientActive(db: Db, clientId: string): Promise<boolean> {
  return db
    .select({ id: apiClients.id })
    .from(apiClients)
    .where(and(eq(apiClients.id, clientId), isNull(apiClients.revokedAt)))
    .limit(1)
    .then((rows) => rows.length > 0);
}
