// The verified-credential cache of the order interface (lib/service/credentials/credential-cache.ts):
// API keys and plans are read from the database once per CREDENTIAL_TTL_MS, and still a revoked
// key stops at once on the instance that revoked it, a plan change applies at once, and on another
// instance (PostgreSQL, scale-out) a revoked key stops within CREDENTIAL_TTL_MS.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDENTIAL_TTL_MS } from "@/lib/service/credentials/credential-cache";
import { expectProblem } from "./assertions";
import { TestClient } from "./client";
import { startTestService, type TestService } from "./harness";
import { ORDERS, orderPartner } from "./orders-client";

let service: TestService;
let api: TestClient;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
});
afterAll(() => service.close());

const listOrders = (token: string) => api.request("GET", `${ORDERS}/orders?per_page=5`, { token });

describe("API keys verified once per few seconds", () => {
  it("a key revoked by the operator stops at once, though it was just verified", async () => {
    const own = await orderPartner(api, { plan: "enterprise" });
    for (let i = 0; i < 3; i++) expect((await listOrders(own.apiKey)).status).toBe(200);
    const revoked = await api.admin("DELETE", `/orgs/${own.orgId}/api-keys/${own.keyId}`);
    expect(revoked.status, revoked.text).toBe(204);
    expectProblem(await listOrders(own.apiKey), 401, "invalid_token");
  });

  it("revoking one organisation's key leaves another organisation's verified key working", async () => {
    const a = await orderPartner(api, { plan: "enterprise" });
    const b = await orderPartner(api, { plan: "enterprise" });
    expect((await listOrders(a.apiKey)).status).toBe(200);
    expect((await listOrders(b.apiKey)).status).toBe(200);
    expect((await api.admin("DELETE", `/orgs/${a.orgId}/api-keys/${a.keyId}`)).status).toBe(204);
    expectProblem(await listOrders(a.apiKey), 401, "invalid_token");
    const stillB = await listOrders(b.apiKey);
    expect(stillB.status).toBe(200);
    // Each key answers for its own organisation only: B's list holds none of A's orders.
    expect(stillB.body).toMatchObject({ meta: { total: 0 } });
  });

  it("a plan change applies at once to a verified key and to an OAuth token's organisation", async () => {
    const own = await orderPartner(api, { plan: "enterprise" });
    const client = await api.createClient(own.orgId, ["orders:read"]);
    const token = await api.token(client);
    // Enterprise: unlimited, so no X-RateLimit headers.
    for (const credential of [own.apiKey, token]) {
      const res = await listOrders(credential);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    }
    expect((await api.admin("PATCH", `/orgs/${own.orgId}`, { plan: "developer" })).status).toBe(200);
    for (const credential of [own.apiKey, token]) {
      const res = await listOrders(credential);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    }
  });

  it("an unknown key is refused every time (refusals are not cached as keys)", async () => {
    const unknown = `pm_live_${"x".repeat(43)}`;
    for (let i = 0; i < 2; i++) expectProblem(await listOrders(unknown), 401, "invalid_token");
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("another instance on the same PostgreSQL", () => {
  let second: TestService;
  let secondApi: TestClient;
  beforeAll(async () => {
    second = await startTestService({}, { databaseUrl: service.databaseUrl });
    secondApi = new TestClient(second);
  });
  afterAll(() => second.close());

  it(`stops a key revoked on the first instance within CREDENTIAL_TTL_MS (${CREDENTIAL_TTL_MS} ms)`, async () => {
    const own = await orderPartner(api, { plan: "enterprise" });
    // Verified (and kept) by the second instance.
    expect((await secondApi.request("GET", `${ORDERS}/orders`, { token: own.apiKey })).status).toBe(200);
    expect((await api.admin("DELETE", `/orgs/${own.orgId}/api-keys/${own.keyId}`)).status).toBe(204);
    expectProblem(await listOrders(own.apiKey), 401, "invalid_token"); // at once where it was revoked
    await sleep(CREDENTIAL_TTL_MS + 100);
    expectProblem(await secondApi.request("GET", `${ORDERS}/orders`, { token: own.apiKey }), 401, "invalid_token");
  });
});
