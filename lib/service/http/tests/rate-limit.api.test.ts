// Rate limits: 60 requests per minute and an hourly cap per organisation (all its partner clients)
// on the mission interface, the plan's minute per organisation (all its API keys and OAuth tokens)
// on the order interface, reported in X-RateLimit-* headers; 429 with Retry-After; counters in the
// database, so they hold across instances; and the token endpoint's limit per client_id against
// secret guessing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceConfig } from "@/lib/service/context";
import { expectProblem, expectRateLimitHeaders } from "./assertions";
import { TestClient, square, type ApiResponse } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, orderPartner } from "./orders-client";
import { awayFromWindowEnd } from "./rate-windows";

const PER_MINUTE = 60;

let service: TestService;
let api: TestClient;
/** A service whose binding limit is the hourly one. */
let hourly: TestService;
let hourlyApi: TestClient;

beforeAll(async () => {
  [service, hourly] = await Promise.all([
    // Its own service: what it counts must be its own traffic alone.
    startTestService({}, { fresh: true }),
    startTestService({ rateLimit: { perMinute: 1000, perHour: 5, tokenPerMinute: 20, tokenPerMinutePerIp: 1000 } }),
  ]);
  api = new TestClient(service);
  hourlyApi = new TestClient(hourly);
});
afterAll(() => Promise.all([service.close(), hourly.close()]));

/** Asserts Retry-After is whole seconds ≥ 1 that agree with X-RateLimit-Reset. */
function expectRetryAfter(res: ApiResponse<unknown>, windowSeconds: number) {
  const retryAfter = res.headers.get("retry-after") ?? "";
  expect(retryAfter).toMatch(/^\d+$/);
  const seconds = Number(retryAfter);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(windowSeconds);
  const reset = Number(res.headers.get("x-ratelimit-reset"));
  if (Number.isFinite(reset) && reset > 0) expect(Math.abs(Date.now() / 1000 + seconds - reset)).toBeLessThanOrEqual(2);
}

/** Another read-write API key of the organisation, made by the operator. */
async function extraKey(client: TestClient, orgId: string): Promise<string> {
  const res = await client.admin<{ api_key: string }>("POST", `/orgs/${orgId}/api-keys`, { name: "another key" });
  if (res.status !== 201) throw new Error(`api key: ${res.status} ${res.text}`);
  return res.body.api_key;
}

describe("per-minute limit per organisation (mission interface)", () => {
  it(`lets ${PER_MINUTE} requests through, counting down, then answers 429; another client of the org shares the count, another org's does not`, async () => {
    const { orgId, token } = await api.partner(["missions:read"]);
    const sibling = await api.token(await api.createClient(orgId, ["missions:read"]));
    const stranger = (await api.partner(["missions:read"])).token;
    await awayFromWindowEnd(60, 15);
    let firstReset: number | undefined;
    for (let i = 0; i < PER_MINUTE; i++) {
      const res = await api.request("GET", "/api/v1/missions", { token: i % 2 === 0 ? token : sibling });
      expect(res.status, `request ${i + 1}: ${res.text}`).toBe(200);
      const { remaining, reset } = expectRateLimitHeaders(res, PER_MINUTE, 60);
      expect(remaining, `request ${i + 1}`).toBe(PER_MINUTE - 1 - i);
      firstReset ??= reset;
      expect(reset).toBe(firstReset);
    }

    const refused = await api.request("GET", "/api/v1/missions", { token });
    expectProblem(refused, 429, "rate_limited");
    expectRetryAfter(refused, 60);
    const { remaining } = expectRateLimitHeaders(refused, PER_MINUTE, 60);
    expect(remaining).toBe(0);

    // Limits are per organisation: its other client is refused too, and so is a client made now…
    expectProblem(await api.request("GET", "/api/v1/missions", { token: sibling }), 429, "rate_limited");
    const fresh = await api.token(await api.createClient(orgId, ["missions:read"]));
    expectProblem(await api.request("GET", "/api/v1/missions", { token: fresh }), 429, "rate_limited");
    // …while another organisation starts at 60.
    const other = await api.request("GET", "/api/v1/missions", { token: stranger });
    expect(other.status, other.text).toBe(200);
    expect(expectRateLimitHeaders(other, PER_MINUTE, 60).remaining).toBe(PER_MINUTE - 1);
  }, 60_000);

  it("reports the headers on 2xx, 403, 404 and 422 authenticated responses", async () => {
    const { token } = await api.partner(["missions:read"]);
    await awayFromWindowEnd(60, 5);
    const responses = [
      await api.request("GET", "/api/v1/missions", { token }),
      await api.request("POST", "/api/v1/missions", { token, body: { title: "No scope", bounds: square(), required_images: 1 } }),
      await api.request("GET", "/api/v1/missions/mission_00000000000000000000000000", { token }),
      await api.request("GET", "/api/v1/missions?per_page=101", { token }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 403, 404, 422]);
    const remaining = responses.map((res) => expectRateLimitHeaders(res, PER_MINUTE, 60).remaining);
    expect(remaining).toEqual([59, 58, 57, 56]);
  }, 50_000);
});

describe("plan limit per organisation (order interface)", () => {
  it("counts three API keys of a Developer organisation against one 60 a minute: the 61st request is refused whichever key sends it", async () => {
    const own = await orderPartner(api, { plan: "developer" });
    const keys = [own.apiKey, await extraKey(api, own.orgId), await extraKey(api, own.orgId)];
    const stranger = await orderPartner(api, { plan: "developer" });
    await awayFromWindowEnd(60, 25);
    for (let i = 0; i < 60; i++) {
      const res = await api.request("GET", `${ORDERS}/orders`, { token: keys[i % 3] });
      expect(res.status, `request ${i + 1}: ${res.text}`).toBe(200);
      expect(expectRateLimitHeaders(res, 60, 60).remaining, `request ${i + 1}`).toBe(59 - i);
    }
    for (const [n, key] of keys.entries()) {
      const refused = await api.request("GET", `${ORDERS}/orders`, { token: key });
      expectProblem(refused, 429, "rate_limited");
      expect(refused.headers.get("x-ratelimit-remaining"), `key ${n + 1}`).toBe("0");
      expectRetryAfter(refused, 60);
    }
    // A key made now shares the spent minute; another organisation does not.
    expectProblem(await api.request("GET", `${ORDERS}/orders`, { token: await extraKey(api, own.orgId) }), 429, "rate_limited");
    const other = await api.request("GET", `${ORDERS}/orders`, { token: stranger.apiKey });
    expect(other.status, other.text).toBe(200);
    expect(expectRateLimitHeaders(other, 60, 60).remaining).toBe(59);
  }, 60_000);

  it("counts an API key and an OAuth token of one organisation against the same plan minute; its dashboard keeps its own limits", async () => {
    const own = await orderPartner(api, { plan: "developer" });
    const token = await api.token(await api.createClient(own.orgId, ["orders:read"]));
    const user = await api.createUser(own.orgId, { email: `rate-dash-${Date.now()}@example.com`, password: "correct horse battery", role: "viewer" });
    const dashboard = (await api.dashboardToken(user.id, own.orgId)).access_token;
    await awayFromWindowEnd(60, 25);
    for (let i = 0; i < 60; i++) {
      const res = await api.request("GET", `${ORDERS}/orders`, { token: i % 2 === 0 ? own.apiKey : token });
      expect(res.status, `request ${i + 1}: ${res.text}`).toBe(200);
      expect(expectRateLimitHeaders(res, 60, 60).remaining, `request ${i + 1}`).toBe(59 - i);
    }
    expectProblem(await api.request("GET", `${ORDERS}/orders`, { token }), 429, "rate_limited");
    expectProblem(await api.request("GET", `${ORDERS}/orders`, { token: own.apiKey }), 429, "rate_limited");
    // The staff's dashboard is not locked out by an integration that spent the plan's minute.
    const staff = await api.request("GET", `${ORDERS}/orders`, { token: dashboard });
    expect(staff.status, staff.text).toBe(200);
    expectRateLimitHeaders(staff, 1200, 60);
  }, 60_000);
});

describe("hourly limit", () => {
  it("refuses the 6th request when the hourly cap is 5, and the headers report the hourly window", async () => {
    const { token } = await hourlyApi.partner(["missions:read"]);
    await awayFromWindowEnd(3600, 10);
    for (let i = 0; i < 5; i++) {
      const res = await hourlyApi.request("GET", "/api/v1/missions", { token });
      expect(res.status, `request ${i + 1}: ${res.text}`).toBe(200);
      expect(expectRateLimitHeaders(res, 5, 3600).remaining).toBe(4 - i);
    }
    const refused = await hourlyApi.request("GET", "/api/v1/missions", { token });
    expectProblem(refused, 429, "rate_limited");
    expectRetryAfter(refused, 3600);
    expect(expectRateLimitHeaders(refused, 5, 3600).remaining).toBe(0);
    // The hourly window, not the minute one: its reset is more than a minute away (except in the
    // last minute of the hour, when both windows end together).
    const now = Math.floor(Date.now() / 1000);
    if (3600 - (now % 3600) > 65) expect(Number(refused.headers.get("x-ratelimit-reset")) - now).toBeGreaterThan(60);
  }, 55_000);
});

describe("across instances", () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "counts requests through two instances on one PostgreSQL against one limit (needs TEST_DATABASE_URL: PGlite is one process, so two instances cannot share it)",
    async () => {
      const rateLimit: ServiceConfig["rateLimit"] = { perMinute: 10, perHour: 1000, tokenPerMinute: 20, tokenPerMinutePerIp: 1000 };
      const first = await startTestService({ rateLimit });
      // Same public origin, so each instance accepts the other's tokens (same issuer and audience).
      const second = await startTestService({ rateLimit, publicOrigin: first.url }, { databaseUrl: first.databaseUrl });
      try {
        const viaFirst = new TestClient(first);
        const viaSecond = new TestClient(second);
        const { token } = await viaFirst.partner(["missions:read"]);
        await awayFromWindowEnd(60, 10);
        for (let i = 0; i < 10; i++) {
          const res = await (i % 2 === 0 ? viaFirst : viaSecond).request("GET", "/api/v1/missions", { token });
          expect(res.status, `request ${i + 1}: ${res.text}`).toBe(200);
          expect(expectRateLimitHeaders(res, 10, 60).remaining).toBe(9 - i);
        }
        expectProblem(await viaSecond.request("GET", "/api/v1/missions", { token }), 429, "rate_limited");
        expectProblem(await viaFirst.request("GET", "/api/v1/missions", { token }), 429, "rate_limited");
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    },
    60_000,
  );
});

describe("across instances (order interface)", () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "counts two API keys of one organisation through two instances against one plan minute (needs TEST_DATABASE_URL)",
    async () => {
      const first = await startTestService({}, { fresh: true });
      const second = await startTestService({ publicOrigin: first.url }, { databaseUrl: first.databaseUrl });
      try {
        const viaFirst = new TestClient(first);
        const viaSecond = new TestClient(second);
        const own = await orderPartner(viaFirst, { plan: "developer" });
        const keys = [own.apiKey, await extraKey(viaFirst, own.orgId)];
        await awayFromWindowEnd(60, 25);
        for (let i = 0; i < 60; i++) {
          const res = await (i % 2 === 0 ? viaFirst : viaSecond).request("GET", `${ORDERS}/orders`, { token: keys[Math.floor(i / 2) % 2] });
          expect(res.status, `request ${i + 1}: ${res.text}`).toBe(200);
          expect(expectRateLimitHeaders(res, 60, 60).remaining, `request ${i + 1}`).toBe(59 - i);
        }
        for (const via of [viaFirst, viaSecond]) {
          for (const key of keys) expectProblem(await via.request("GET", `${ORDERS}/orders`, { token: key }), 429, "rate_limited");
        }
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    },
    90_000,
  );
});

describe("token endpoint", () => {
  const TOKEN_PER_MINUTE = 20;

  const requestToken = (clientId: string, secret: string) =>
    api.request<{ error?: string; access_token?: string }>("POST", "/api/v1/auth/token", {
      body: { grant_type: "client_credentials", client_id: clientId, client_secret: secret },
    });

  it(`refuses the ${TOKEN_PER_MINUTE + 1}st token request for one client_id within a minute, even with the right secret`, async () => {
    const orgId = await api.createOrg("Brute force");
    const victim = await api.createClient(orgId, ["missions:read"]);
    await awayFromWindowEnd(60, 10);
    for (let i = 0; i < TOKEN_PER_MINUTE - 1; i++) {
      expect((await requestToken(victim.client_id, `cs_guess${i}`)).status).toBe(401);
    }
    expect((await requestToken(victim.client_id, victim.client_secret)).status).toBe(200);

    const refused = await requestToken(victim.client_id, victim.client_secret);
    expect(refused.status, refused.text).toBe(429);
    expectRetryAfter(refused, 60);
    expect(typeof refused.body.error).toBe("string");
    expect(refused.body.access_token).toBeUndefined();

    // The limit is per client_id: another client is unaffected.
    const bystander = await api.createClient(orgId, ["missions:read"]);
    expect((await requestToken(bystander.client_id, bystander.client_secret)).status).toBe(200);
  }, 55_000);
});
