// The organisation's credentials managed from the dashboard: API clients and API keys, for
// holders of clients:manage (admin dashboard tokens) only, secrets shown once, revocation that
// takes effect at once, and no reach into another organisation.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "@/lib/db/schema";
import type { ApiClientRecord, OrgApiKeyRecord } from "@/lib/schemas/credentials";
import type { ProblemBody } from "@/lib/service/errors";
import { expectBearerChallenge, expectProblem, pointersOf } from "./assertions";
import { TestClient, type ApiResponse } from "./client";
import { startTestService, type TestService } from "./harness";
import { decodeJwt } from "./jwt";

type CreatedClient = ApiClientRecord & { client_secret: string };
type CreatedKey = OrgApiKeyRecord & { key: string };

/** Active API keys an organisation may hold (documented in docs/orders.md and the OpenAPI document). */
const MAX_KEYS = 25;

let service: TestService;
let api: TestClient;
let orgA: string;
let orgB: string;
/** Admin dashboard tokens of A and B, an editor's of A, and a partner token of A with every partner scope. */
let adminA: string;
let adminB: string;
let editorA: string;
let partnerA: string;
let dashboardClientA: string;
let zoomerClientId: string;

const PASSWORD = "correct horse battery staple";
let counter = 0;
const email = () => `staff-${Date.now()}-${++counter}@example.com`;

async function adminToken(orgId: string, role: "admin" | "editor" = "admin") {
  const user = await api.createUser(orgId, { email: email(), password: PASSWORD, role });
  return (await api.dashboardToken(user.id, orgId)).access_token;
}

beforeAll(async () => {
  // Every request here is a dashboard or partner call; the limits have their own suites.
  service = await startTestService({ rateLimit: { perMinute: 10_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } });
  api = new TestClient(service);
  orgA = await api.createOrg("Org A");
  orgB = await api.createOrg("Org B");
  adminA = await adminToken(orgA);
  adminB = await adminToken(orgB);
  editorA = await adminToken(orgA, "editor");
  dashboardClientA = String(decodeJwt(adminA).payload.client_id);
  partnerA = await api.token(
    await api.createClient(orgA, ["missions:read", "missions:write", "submissions:read", "webhooks:manage", "orders:read", "orders:write"]),
  );
  zoomerClientId = (await api.createZoomer()).client_id;
});
afterAll(() => service.close());

const listClients = (token: string) => api.request<{ data: ApiClientRecord[] }>("GET", "/api/v1/clients", { token });
const listKeys = (token: string) => api.request<{ data: OrgApiKeyRecord[] }>("GET", "/api/v1/api-keys", { token });
const createClient = (token: string, body: unknown) => api.request<CreatedClient>("POST", "/api/v1/clients", { token, body });
const createKey = (token: string, body: unknown) => api.request<CreatedKey>("POST", "/api/v1/api-keys", { token, body });

function withoutInstance(res: ApiResponse<unknown>): Partial<ProblemBody> {
  const rest: Partial<ProblemBody> = { ...(res.body as ProblemBody) };
  delete rest.instance;
  return rest;
}

describe("who may manage credentials", () => {
  const ROUTES: { method: string; path: string; body?: unknown }[] = [
    { method: "GET", path: "/api/v1/clients" },
    { method: "POST", path: "/api/v1/clients", body: { name: "x", scopes: ["missions:read"] } },
    { method: "DELETE", path: "/api/v1/clients/cli_00000000000000000000000000" },
    { method: "GET", path: "/api/v1/api-keys" },
    { method: "POST", path: "/api/v1/api-keys", body: { name: "x" } },
    { method: "DELETE", path: "/api/v1/api-keys/key_00000000000000000000000000" },
  ];

  it.each(ROUTES)(
    "$method $path needs clients:manage: an editor's dashboard token and a partner token with every partner scope get 403",
    async ({ method, path, body }) => {
      for (const token of [editorA, partnerA]) {
        const res = await api.request(method, path, { token, body });
        const problem = expectProblem(res, 403, "insufficient_scope");
        expect(problem.detail).toContain("clients:manage");
        expectBearerChallenge(res, "insufficient_scope");
      }
      expectProblem(await api.request(method, path, { body }), 401, "unauthorized");
    },
  );

  it("nothing was created by the refused requests", async () => {
    expect((await listClients(adminA)).body.data.map((c) => c.name)).not.toContain("x");
    expect((await listKeys(adminA)).body.data).toEqual([]);
  });
});

describe("API clients", () => {
  it("creates a client whose secret is shown once and works at the token endpoint with exactly its scopes", async () => {
    const res = await createClient(adminA, { name: "  Warehouse sync  ", scopes: ["submissions:read", "missions:read"] });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({
      id: expect.stringMatching(/^cli_/),
      name: "Warehouse sync",
      scopes: ["submissions:read", "missions:read"],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      revoked_at: null,
      client_secret: expect.stringMatching(/^cs_/),
    });
    const token = await api.request<{ scope: string; access_token: string }>("POST", "/api/v1/auth/token", {
      body: { grant_type: "client_credentials", client_id: res.body.id, client_secret: res.body.client_secret },
    });
    expect(token.status, token.text).toBe(200);
    expect(token.body.scope.split(" ").sort()).toEqual(["missions:read", "submissions:read"]);
    expect(decodeJwt(token.body.access_token).payload).toMatchObject({ org: orgA, client_id: res.body.id });

    const listed = await listClients(adminA);
    expect(listed.status).toBe(200);
    const { client_secret: secret, ...withoutSecret } = res.body;
    expect(listed.body.data).toContainEqual(withoutSecret);
    expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toMatch(/secret/i);
  });

  it("lists the organisation's partner clients newest first — never its dashboard client or zoomers", async () => {
    const first = await createClient(adminA, { name: "Older", scopes: ["missions:read"] });
    const second = await createClient(adminA, { name: "Newer", scopes: ["orders:read"] });
    const ids = (await listClients(adminA)).body.data.map((c) => c.id);
    expect(ids.indexOf(second.body.id)).toBeLessThan(ids.indexOf(first.body.id));
    expect(ids.indexOf(second.body.id)).toBe(0);
    expect(ids).not.toContain(dashboardClientA);
    expect(ids).not.toContain(zoomerClientId);
    // The partner client created through the operator interface is listed too.
    expect(ids).toContain(String(decodeJwt(partnerA).payload.client_id));
  });

  it.each([
    { name: "an unknown scope", scopes: ["missions:read", "missions:delete"], pointer: "/scopes/1" },
    { name: "clients:manage", scopes: ["clients:manage"], pointer: "/scopes/0" },
    { name: "submissions:write", scopes: ["missions:read", "orders:read", "submissions:write"], pointer: "/scopes/2" },
    { name: "a scope listed twice", scopes: ["missions:read", "orders:read", "missions:read"], pointer: "/scopes/2" },
    { name: "no scopes", scopes: [], pointer: "/scopes" },
  ])("refuses $name with 422 pointing at it, and creates nothing", async ({ scopes, pointer }) => {
    const before = (await listClients(adminA)).body.data.length;
    const res = await createClient(adminA, { name: "Refused", scopes });
    const problem = expectProblem(res, 422, "validation_failed");
    expect(pointersOf(problem)).toEqual([pointer]);
    expect((await listClients(adminA)).body.data.length).toBe(before);
  });

  it.each([
    { label: "an empty name", body: { name: "   ", scopes: ["missions:read"] }, pointer: "/name" },
    { label: "a 101-character name", body: { name: "x".repeat(101), scopes: ["missions:read"] }, pointer: "/name" },
    { label: "an unknown field", body: { name: "ok", scopes: ["missions:read"], org_id: "org_other" }, pointer: "/org_id" },
    { label: "scopes as a string", body: { name: "ok", scopes: "missions:read" }, pointer: "/scopes" },
  ])("refuses $label with 422", async ({ body, pointer }) => {
    expect(pointersOf(expectProblem(await createClient(adminA, body), 422, "validation_failed"))).toEqual([pointer]);
  });

  it("accepts a 100-character name", async () => {
    expect((await createClient(adminA, { name: "x".repeat(100), scopes: ["missions:read"] })).status).toBe(201);
  });

  it("revokes a client: its existing token is refused at once, it gets no new token, the list shows when; revoking again is 204", async () => {
    const created = (await createClient(adminA, { name: "Short-lived", scopes: ["missions:read"] })).body;
    const token = await api.token({ client_id: created.id, client_secret: created.client_secret });
    expect((await api.request("GET", "/api/v1/missions", { token })).status).toBe(200);

    const revoked = await api.request("DELETE", `/api/v1/clients/${created.id}`, { token: adminA });
    expect(revoked.status, revoked.text).toBe(204);
    expect(revoked.text).toBe("");
    const refused = await api.request("GET", "/api/v1/missions", { token });
    expectProblem(refused, 401, "invalid_token");
    expectBearerChallenge(refused, "invalid_token");
    const again = await api.request<{ error: string }>("POST", "/api/v1/auth/token", {
      body: { grant_type: "client_credentials", client_id: created.id, client_secret: created.client_secret },
    });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe("invalid_client");

    const listed = (await listClients(adminA)).body.data.find((c) => c.id === created.id);
    expect(listed?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect((await api.request("DELETE", `/api/v1/clients/${created.id}`, { token: adminA })).status).toBe(204);
    expect((await listClients(adminA)).body.data.find((c) => c.id === created.id)?.revoked_at).toBe(listed?.revoked_at);
  });

  it("leaves the operator's DELETE /clients/{id} as it was: 204 once, then 404 for the revoked client", async () => {
    const created = (await createClient(adminA, { name: "Operator revokes", scopes: ["missions:read"] })).body;
    expect((await api.admin("DELETE", `/clients/${created.id}`)).status).toBe(204);
    expectProblem(await api.admin("DELETE", `/clients/${created.id}`), 404, "not_found");
    // …while the dashboard's DELETE stays idempotent.
    expect((await api.request("DELETE", `/api/v1/clients/${created.id}`, { token: adminA })).status).toBe(204);
  });

  it("answers 404 for the organisation's own dashboard client, a zoomer's client and an unknown id, and they keep working", async () => {
    const missing = await api.request("DELETE", "/api/v1/clients/cli_00000000000000000000000000", { token: adminA });
    expectProblem(missing, 404, "not_found");
    for (const id of [dashboardClientA, zoomerClientId]) {
      const res = await api.request("DELETE", `/api/v1/clients/${id}`, { token: adminA });
      expectProblem(res, 404, "not_found");
      expect(withoutInstance(res)).toEqual(withoutInstance(missing));
    }
    // adminA is a token of the dashboard client: still accepted.
    expect((await listClients(adminA)).status).toBe(200);
  });
});

describe("API keys", () => {
  it("creates a key shown once, lists it by prefix only, and revokes it (again: 204)", async () => {
    const res = await createKey(adminA, { name: "ERP orders" });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual({
      id: expect.stringMatching(/^key_/),
      name: "ERP orders",
      key_prefix: res.body.key.slice(0, 12),
      access: "read_write",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      last_used_at: null,
      revoked_at: null,
      key: expect.stringMatching(/^pm_live_[A-Za-z0-9_-]{40,}$/),
    });

    const listed = await listKeys(adminA);
    const { key, ...withoutKey } = res.body;
    expect(listed.body.data[0]).toEqual(withoutKey);
    expect(listed.text).not.toContain(key);

    expect((await api.request("DELETE", `/api/v1/api-keys/${res.body.id}`, { token: adminA })).status).toBe(204);
    const after = (await listKeys(adminA)).body.data.find((k) => k.id === res.body.id);
    expect(after?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    const [row] = await service.runtime.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, res.body.id));
    expect(row?.revokedAt).toBeInstanceOf(Date);
    expect((await api.request("DELETE", `/api/v1/api-keys/${res.body.id}`, { token: adminA })).status).toBe(204);
  });

  it("lists keys newest first", async () => {
    const older = (await createKey(adminA, { name: "Older key" })).body;
    const newer = (await createKey(adminA, { name: "Newer key" })).body;
    const ids = (await listKeys(adminA)).body.data.map((k) => k.id);
    expect(ids.slice(0, 2)).toEqual([newer.id, older.id]);
  });

  it.each([{ name: "" }, { name: "y".repeat(101) }, {}, { name: "ok", prefix: "pm_live_mine" }])("refuses %j with 422", async (body) => {
    expectProblem(await createKey(adminA, body), 422, "validation_failed");
  });

  it("answers 404 for an unknown key", async () => {
    expectProblem(await api.request("DELETE", "/api/v1/api-keys/key_00000000000000000000000000", { token: adminA }), 404, "not_found");
  });

  it(`caps an organisation at ${MAX_KEYS} active keys: one more is 409 api_key_limit_reached (here and for the operator); revoked keys do not count`, async () => {
    const orgId = await api.createOrg("Many keys");
    const admin = await adminToken(orgId);
    const made: CreatedKey[] = [];
    for (let i = 0; i < MAX_KEYS; i++) {
      const res = await createKey(admin, { name: `key ${i + 1}` });
      expect(res.status, `key ${i + 1}: ${res.text}`).toBe(201);
      made.push(res.body);
    }
    const refused = expectProblem(await createKey(admin, { name: "one too many" }), 409, "api_key_limit_reached");
    expect(refused.detail).toContain(String(MAX_KEYS));
    expectProblem(await api.admin("POST", `/orgs/${orgId}/api-keys`, { name: "operator's one too many" }), 409, "api_key_limit_reached");
    expect((await listKeys(admin)).body.data).toHaveLength(MAX_KEYS);

    // Revoking one frees a place; two requests racing for it get it once.
    expect((await api.request("DELETE", `/api/v1/api-keys/${made[0]?.id}`, { token: admin })).status).toBe(204);
    const raced = await Promise.all([createKey(admin, { name: "racer 1" }), createKey(admin, { name: "racer 2" })]);
    expect(raced.map((r) => r.status).sort()).toEqual([201, 409]);
    const active = (await listKeys(admin)).body.data.filter((k) => k.revoked_at === null);
    expect(active).toHaveLength(MAX_KEYS);
  });
});

describe("tenant isolation", () => {
  let clientOfA: CreatedClient;
  let keyOfA: CreatedKey;
  let tokenOfClientA: string;

  beforeAll(async () => {
    clientOfA = (await createClient(adminA, { name: "A's integration", scopes: ["missions:read"] })).body;
    keyOfA = (await createKey(adminA, { name: "A's key" })).body;
    tokenOfClientA = await api.token({ client_id: clientOfA.id, client_secret: clientOfA.client_secret });
    await createClient(adminB, { name: "B's integration", scopes: ["orders:read"] });
    await createKey(adminB, { name: "B's key" });
  });

  it("org B's lists hold only B's clients and keys", async () => {
    const clients = await listClients(adminB);
    expect(clients.body.data.map((c) => c.name)).toEqual(["B's integration"]);
    expect(clients.text).not.toContain(clientOfA.id);
    const keys = await listKeys(adminB);
    expect(keys.body.data.map((k) => k.name)).toEqual(["B's key"]);
    expect(keys.text).not.toContain(keyOfA.id);
  });

  it("org B revoking A's client or key gets 404 exactly like an unknown id, and A's credentials keep working", async () => {
    const foreignClient = await api.request("DELETE", `/api/v1/clients/${clientOfA.id}`, { token: adminB });
    const missingClient = await api.request("DELETE", "/api/v1/clients/cli_00000000000000000000000000", { token: adminB });
    expectProblem(foreignClient, 404, "not_found");
    expect(withoutInstance(foreignClient)).toEqual(withoutInstance(missingClient));

    const foreignKey = await api.request("DELETE", `/api/v1/api-keys/${keyOfA.id}`, { token: adminB });
    const missingKey = await api.request("DELETE", "/api/v1/api-keys/key_00000000000000000000000000", { token: adminB });
    expectProblem(foreignKey, 404, "not_found");
    expect(withoutInstance(foreignKey)).toEqual(withoutInstance(missingKey));

    expect((await api.request("GET", "/api/v1/missions", { token: tokenOfClientA })).status).toBe(200);
    const clientsOfA = (await listClients(adminA)).body.data;
    expect(clientsOfA.find((c) => c.id === clientOfA.id)?.revoked_at).toBeNull();
    expect((await listKeys(adminA)).body.data.find((k) => k.id === keyOfA.id)?.revoked_at).toBeNull();
  });

  it("a client created by org B's admin belongs to org B", async () => {
    const created = (await createClient(adminB, { name: "B's second", scopes: ["missions:read"] })).body;
    const token = await api.token({ client_id: created.id, client_secret: created.client_secret });
    expect(decodeJwt(token).payload.org).toBe(orgB);
  });
});
