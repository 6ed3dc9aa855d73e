// Rate limits across instances without a database write per request: two app instances on one
// PostgreSQL count an organisation's requests in memory against leases of budget from the shared
// counters (lib/service/rate-limit/leased-limiter.ts), and together allow exactly the limit; a
// client revoked on one is refused at once on the other. Needs PostgreSQL (TEST_DATABASE_URL): the
// embedded database is one process by design (its limiter counts in that process).
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { rateLimitCounters } from "@/lib/db/schema";
import type { ServiceConfig } from "@/lib/service/context";
import { TestClient, type ApiResponse } from "./client";
import { startTestService, type TestService } from "./harness";
import { awayFromWindowEnd } from "./rate-windows";

// One public origin for both, as behind a load balancer: a token of one is valid on the other.
const PUBLIC_ORIGIN = "http://photo-missions.test";
// Large enough for leases of several requests (1/64 of what is left), shrinking to one near the end.
const PER_MINUTE = 640;

describe.runIf(process.env.TEST_DATABASE_URL)("rate limits over two instances on one PostgreSQL", () => {
  let first: TestService;
  let second: TestService;
  let a: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    const config: Partial<ServiceConfig> = {
      publicOrigin: PUBLIC_ORIGIN,
      rateLimit: { perMinute: PER_MINUTE, perHour: 10_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 },
    };
    first = await startTestService(config);
    second = await startTestService(config, { databaseUrl: first.databaseUrl });
    a = new TestClient(first);
    b = new TestClient(second);
  }, 60_000);
  afterAll(async () => {
    await second.close();
    await first.close(); // drops the database it created
  });

  async function missionOf(): Promise<{ orgId: string; token: string; path: string }> {
    const partner = await a.partner(["missions:read", "missions:write"]);
    const mission = await a.createMission(partner.token); // counts as one request of the minute
    return { orgId: partner.orgId, token: partner.token, path: `/api/v1/missions/${mission.id}` };
  }

  const statuses = (responses: ApiResponse<unknown>[]) => responses.map((r) => r.status);

  it("allows exactly the limit when requests alternate between the instances, then 429 with Retry-After on both", async () => {
    await awayFromWindowEnd(60, 25);
    const { token, path } = await missionOf();
    const responses: ApiResponse<unknown>[] = [];
    for (let i = 0; i < PER_MINUTE + 40; i++) responses.push(await (i % 2 === 0 ? a : b).request("GET", path, { token }));
    expect(statuses(responses).filter((s) => s === 200).length).toBe(PER_MINUTE - 1);
    expect(statuses(responses).filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const [fromA, fromB] = [responses.at(-2), responses.at(-1)];
    for (const refused of [fromA, fromB]) {
      expect(refused?.status).toBe(429);
      expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused?.headers.get("x-ratelimit-limit")).toBe(String(PER_MINUTE));
      expect(refused?.headers.get("x-ratelimit-remaining")).toBe("0");
    }
  }, 90_000);

  it("allows exactly the limit when requests hit both instances at once", async () => {
    await awayFromWindowEnd(60, 25);
    const { token, path } = await missionOf();
    const responses = await Promise.all(Array.from({ length: PER_MINUTE + 100 }, (_, i) => (i % 2 === 0 ? a : b).request("GET", path, { token })));
    expect(statuses(responses).filter((s) => s === 200).length).toBe(PER_MINUTE - 1);
    expect(statuses(responses).filter((s) => s !== 200 && s !== 429)).toEqual([]);
  }, 90_000);

  it("counts requests in memory: the shared counter moves by leases, not by a write per request", async () => {
    await awayFromWindowEnd(60, 25);
    const { orgId, token, path } = await missionOf();
    const minuteCounter = async () => {
      const now = Math.floor(Date.now() / 1000);
      const [row] = await first.runtime.ctx.db
        .select({ count: rateLimitCounters.count })
        .from(rateLimitCounters)
        .where(and(eq(rateLimitCounters.key, `org:${orgId}`), eq(rateLimitCounters.windowSeconds, 60), eq(rateLimitCounters.windowStart, now - (now % 60))));
      return row?.count ?? 0;
    };
    expect((await a.request("GET", path, { token })).status).toBe(200);
    const before = await minuteCounter();
    for (let i = 0; i < 3; i++) expect((await a.request("GET", path, { token })).status).toBe(200);
    // The three requests came out of the lease taken before: the counter did not move.
    expect(await minuteCounter()).toBe(before);
  }, 60_000);

  it("refuses a client revoked on one instance on the other as soon as the NOTIFY arrives, though it had verified and cached its token", async () => {
    const { orgId, path } = await missionOf();
    const client = await a.createClient(orgId, ["missions:read"]);
    const token = await a.token(client);
    expect((await b.request("GET", path, { token })).status).toBe(200);
    expect((await a.admin("DELETE", `/clients/${client.client_id}`)).status).toBe(204);
    // On the instance that revoked: at once.
    expect((await a.request("GET", path, { token })).status).toBe(401);
    // On the other: when PostgreSQL delivers the NOTIFY, which may land a moment after the 204.
    // Within 1 s, well inside the 5 s after which B would ask the database anyway (CREDENTIAL_TTL_MS),
    // so only the NOTIFY can have refused it.
    const refused = await vi.waitFor(
      async () => {
        const response = await b.request("GET", path, { token });
        expect(response.status).toBe(401);
        return response;
      },
      { timeout: 1_000, interval: 20 },
    );
    expect(refused.text).toContain("revoked");
  });
});
