import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/client";
import { openTemplatePglite } from "@/lib/testing/pglite-template";
import { apiClients } from "@/lib/db/schema";
import { CREDENTIAL_TTL_MS } from "@/lib/service/credentials/credential-cache";
import { eq, sql } from "drizzle-orm";
import { createRateLimiter } from "./limiter";

let database: Database;
const windows = [{ seconds: 60, limit: 3 }];

beforeAll(async () => {
  database = await openTemplatePglite();
  await database.db.insert(apiClients).values({ id: "cli_test", kind: "partner", name: "t", secretHash: "x", scopes: [] });
});
afterAll(() => database.close());

describe("the in-process limiter of the embedded database", () => {
  it("counts exactly, refuses past the limit, and reports the binding window", async () => {
    const limiter = createRateLimiter(database.db, "pglite");
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.consume("k1", windows));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.binding.remaining)).toEqual([2, 1, 0, 0]);
    await limiter.stop();
  });

  it("counts concurrent requests once each", async () => {
    const limiter = createRateLimiter(database.db, "pglite");
    const results = await Promise.all(Array.from({ length: 10 }, () => limiter.consume("k2", [{ seconds: 60, limit: 100 }])));
    expect(results.map((r) => r.binding.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await limiter.stop();
  });

  it("writes counts through to the table, so a restarted process carries on counting", async () => {
    const first = createRateLimiter(database.db, "pglite");
    await first.consume("k3", windows);
    await first.consume("k3", windows);
    await first.stop();
    const second = createRateLimiter(database.db, "pglite");
    const third = await second.consume("k3", windows);
    expect(third.binding.count).toBe(3);
    expect((await second.consume("k3", windows)).allowed).toBe(false);
    await second.stop();
  });

  it("peeks at the counts without counting, and sees counts written by an earlier process", async () => {
    const first = createRateLimiter(database.db, "pglite");
    await first.consume("k6", windows);
    await first.consume("k6", windows);
    expect((await first.peek("k6", windows)).map((w) => w.count)).toEqual([2]);
    expect((await first.peek("k6", windows)).map((w) => w.count)).toEqual([2]);
    await first.stop();
    const second = createRateLimiter(database.db, "pglite");
    const [state] = await second.peek("k6", windows);
    expect(state).toMatchObject({ count: 2, remaining: 1, limit: 3 });
    expect((await second.consume("k6", windows)).binding.count).toBe(3);
    expect((await second.peek("k6", windows))[0]?.remaining).toBe(0);
    expect((await second.peek("k-never-seen", windows))[0]?.count).toBe(0);
    await second.stop();
  });

  it("starts a new count when a window ends, each window on its own (the kept counters follow the clock)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date("2026-11-30T10:00:58Z"));
      const limiter = createRateLimiter(database.db, "pglite");
      const both = [
        { seconds: 60, limit: 2 },
        { seconds: 3600, limit: 3 },
      ];
      expect((await limiter.consume("k7", both)).allowed).toBe(true);
      expect((await limiter.consume("k7", both)).allowed).toBe(true);
      expect((await limiter.consume("k7", both)).allowed).toBe(false); // the minute's third
      vi.setSystemTime(new Date("2026-11-30T10:01:01Z")); // a new minute, the same hour
      const next = await limiter.consume("k7", both);
      expect(next.allowed).toBe(false); // the hour's fourth
      expect(next.binding).toMatchObject({ seconds: 3600, count: 4 });
      vi.setSystemTime(new Date("2026-11-30T11:00:00Z")); // a new hour
      const fresh = await limiter.consume("k7", both);
      expect(fresh.allowed).toBe(true);
      expect(fresh.binding).toMatchObject({ seconds: 60, count: 1, remaining: 1 });
      await limiter.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps a revocation made while the client was still being looked up", async () => {
    await database.db.insert(apiClients).values({ id: "cli_race", kind: "partner", name: "t", secretHash: "x", scopes: [] });
    const limiter = createRateLimiter(database.db, "pglite");
    const first = limiter.consume("client:cli_race", windows, { activeClientId: "cli_race" }); // the lookup is under way
    limiter.clientRevoked("cli_race");
    await first; // answered from the lookup that started before the revocation
    expect((await limiter.consume("client:cli_race", windows, { activeClientId: "cli_race" })).clientActive).toBe(false);
    await limiter.stop();
  });

  it("asks the database again after a failed read, for the client and for a window's count", async () => {
    await database.db.insert(apiClients).values({ id: "cli_flaky", kind: "partner", name: "t", secretHash: "x", scopes: [] });
    const limiter = createRateLimiter(database.db, "pglite");
    const options = { activeClientId: "cli_flaky" };
    await database.db.execute(sql`alter table api_clients rename to api_clients_away`);
    await expect(limiter.consume("client:cli_flaky", windows, options)).rejects.toThrow();
    await database.db.execute(sql`alter table api_clients_away rename to api_clients`);
    await database.db.execute(sql`alter table rate_limit_counters rename to rate_limit_counters_away`);
    await expect(limiter.consume("client:cli_flaky", windows, options)).rejects.toThrow();
    await database.db.execute(sql`alter table rate_limit_counters_away rename to rate_limit_counters`);
    const after = await limiter.consume("client:cli_flaky", windows, options);
    expect(after).toMatchObject({ clientActive: true, allowed: true });
    expect(after.binding.count).toBe(1);
    await limiter.stop();
  });

  it("refuses a revoked client at once, and an unknown one", async () => {
    const limiter = createRateLimiter(database.db, "pglite");
    expect((await limiter.consume("client:cli_test", windows, { activeClientId: "cli_test" })).clientActive).toBe(true);
    limiter.clientRevoked("cli_test");
    const after = await limiter.consume("client:cli_test", windows, { activeClientId: "cli_test" });
    expect(after.clientActive).toBe(false);
    expect(after.allowed).toBe(false);
    expect((await limiter.consume("client:cli_nope", windows, { activeClientId: "cli_nope" })).clientActive).toBe(false);
    expect(await limiter.isClientActive("cli_test")).toBe(false);
    expect(await limiter.isClientActive("cli_nope")).toBe(false);
    await limiter.stop();
  });

  it("answers whether a client is active without counting anything (for requests no limit applies to)", async () => {
    await database.db.insert(apiClients).values({ id: "cli_live", kind: "partner", name: "t", secretHash: "x", scopes: [] });
    for (const kind of ["pglite", "postgres"] as const) {
      const limiter = createRateLimiter(database.db, kind);
      expect(await limiter.isClientActive("cli_live"), kind).toBe(true);
      expect(await limiter.isClientActive("cli_unknown"), kind).toBe(false);
      await limiter.stop();
    }
  });
});

describe("the leased limiter (PostgreSQL)", () => {
  // The statements are plain PostgreSQL; PGlite runs them too, which is how they are tested here
  // (the API tests run them on a real PostgreSQL, two instances at once in rate-limit-instances).
  it("answers as the others do, and a refused request spends nothing", async () => {
    const limiter = createRateLimiter(database.db, "postgres");
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.consume("k4", windows, { activeClientId: "cli_test" }));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.binding.remaining)).toEqual([2, 1, 0, 0]);
    expect(results[3]?.retryAfterSeconds).toBeGreaterThan(0);
    expect((await limiter.consume("k5", windows, { activeClientId: "cli_nope" })).clientActive).toBe(false);
    expect((await limiter.peek("k4", windows))[0]).toMatchObject({ count: 3, remaining: 0 });
    await limiter.stop();
  });

  it("allows exactly the limit across two instances sharing the counters, each leasing budget", async () => {
    const limit = 400; // leases of 6, then fewer as the window fills
    const both = [createRateLimiter(database.db, "postgres"), createRateLimiter(database.db, "postgres")];
    let allowed = 0;
    for (let i = 0; i < limit + 60; i++) {
      const limiter = both[i % 2];
      if (limiter && (await limiter.consume("k7", [{ seconds: 3600, limit }])).allowed) allowed += 1;
    }
    expect(allowed).toBe(limit);
    // Concurrent requests on both at once: still never past the limit.
    const burst = await Promise.all(Array.from({ length: limit + 100 }, (_, i) => both[i % 2]?.consume("k8", [{ seconds: 3600, limit }])));
    expect(burst.filter((r) => r?.allowed).length).toBe(limit);
    await Promise.all(both.map((l) => l.stop()));
  });

  it("gives back what it leased and did not use when it stops, so another instance can spend it", async () => {
    const hour = [{ seconds: 3600, limit: 1000 }];
    const first = createRateLimiter(database.db, "postgres");
    await first.consume("k9", hour); // leases 15, uses 1
    expect((await first.peek("k9", hour))[0]?.count).toBe(1);
    await first.stop();
    const second = createRateLimiter(database.db, "postgres");
    expect((await second.peek("k9", hour))[0]?.count).toBe(1);
    let allowed = 0;
    for (let i = 0; i < 1020; i++) if ((await second.consume("k9", hour)).allowed) allowed += 1;
    expect(allowed).toBe(999);
    await second.stop();
  });

  it("refuses a client at once when told it was revoked", async () => {
    await database.db.insert(apiClients).values({ id: "cli_pg", kind: "partner", name: "t", secretHash: "x", scopes: [] });
    const limiter = createRateLimiter(database.db, "postgres");
    expect((await limiter.consume("client:cli_pg", windows, { activeClientId: "cli_pg" })).clientActive).toBe(true);
    limiter.clientRevoked("cli_pg");
    expect((await limiter.consume("client:cli_pg", windows, { activeClientId: "cli_pg" })).clientActive).toBe(false);
    await limiter.stop();
  });

  it("asks about a client known active again after the credential bound, so a lost NOTIFY cannot keep a revoked client working", async () => {
    await database.db.insert(apiClients).values({ id: "cli_lost", kind: "partner", name: "t", secretHash: "x", scopes: [] });
    // A LISTEN that holds and never delivers: the revocation's NOTIFY is lost on the way.
    const listen: NonNullable<Database["listen"]> = (_channel, _onMessage, onListening) => {
      onListening?.(true);
      return Promise.resolve(() => Promise.resolve());
    };
    let now = Date.now();
    const limiter = createRateLimiter(database.db, "postgres", { listen, now: () => now });
    expect(await limiter.isClientActive("cli_lost")).toBe(true);
    await database.db.update(apiClients).set({ revokedAt: new Date() }).where(eq(apiClients.id, "cli_lost"));
    // Within the bound the instance answers from memory (no read per request)…
    now += CREDENTIAL_TTL_MS - 1;
    expect(await limiter.isClientActive("cli_lost")).toBe(true);
    // …and past it asks the database again.
    now += 1;
    expect(await limiter.isClientActive("cli_lost")).toBe(false);
    expect((await limiter.consume("client:cli_lost", windows, { activeClientId: "cli_lost" })).clientActive).toBe(false);
    await limiter.stop();
  });
});
