// The operator interface's dashboard routes: password sign-in (uniform failures, a limit per
// address), user lookup, memberships, and the dashboard tokens issued per organisation and role.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROLE_SCOPES } from "@/lib/auth/scopes";
import { apiClients, memberships, users, type Role } from "@/lib/db/schema";
import { createId } from "@/lib/ids/create-id";
import type { DashboardToken, DashboardUser } from "@/lib/schemas/dashboard";
import type { ProblemBody } from "@/lib/service/errors";
import { expectProblem, expectRateLimitHeaders } from "./assertions";
import { TestClient, square, type ApiResponse } from "./client";
import { startTestService, type TestService } from "./harness";
import { awayFromWindowEnd } from "./rate-windows";
import { decodeJwt } from "./jwt";

let service: TestService;
let api: TestClient;
let orgA: string;
let orgB: string;
let orgC: string;
/** Member of three organisations (names chosen so that creation order is not name order). */
const ada = { email: "Ada.Lovelace@example.com", password: "analytical engine 1843", name: "Ada Lovelace", id: "" };
const PASSWORD = "correct horse battery staple";

let counter = 0;
/** A fresh address, so tests that count failures per address do not share counters. */
const freshEmail = (label: string) => `${label}-${Date.now()}-${++counter}@example.com`;

beforeAll(async () => {
  service = await startTestService();
  api = new TestClient(service);
  orgA = await api.createOrg("zenith surveys");
  orgB = await api.createOrg("Acme Mapping");
  orgC = await api.createOrg("beacon Photo");
  ada.id = (await api.createUser(orgA, { email: ada.email, password: ada.password, role: "admin", name: ada.name })).id;
  await api.createUser(orgB, { email: ada.email, password: "ignored for an existing user", role: "viewer" });
  await api.createUser(orgC, { email: ada.email, password: "ignored for an existing user", role: "editor" });
});
afterAll(() => service.close());

const signIn = (email: string, password: string) => api.admin<DashboardUser>("POST", "/dashboard/sign-in", { email, password });

/** A user who signs in with single sign-on only: no password hash. */
async function oidcOnlyUser(orgId: string): Promise<{ id: string; email: string }> {
  const user = { id: createId("user"), email: freshEmail("sso") };
  await service.runtime.ctx.db.insert(users).values({ ...user, name: "Single Sign-On", passwordHash: null });
  await service.runtime.ctx.db.insert(memberships).values({ userId: user.id, orgId, role: "viewer" });
  return user;
}

function withoutInstance(res: ApiResponse<unknown>): Partial<ProblemBody> {
  const rest: Partial<ProblemBody> = { ...(res.body as ProblemBody) };
  delete rest.instance;
  return rest;
}

const ADA_MEMBERSHIPS = () => [
  { org_id: orgB, org_name: "Acme Mapping", role: "viewer" },
  { org_id: orgC, org_name: "beacon Photo", role: "editor" },
  { org_id: orgA, org_name: "zenith surveys", role: "admin" },
];

describe("POST /dashboard/sign-in", () => {
  it("answers the user and their memberships sorted by organisation name, whatever the case of the address", async () => {
    const res = await signIn(ada.email.toUpperCase(), ada.password);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ user: { id: ada.id, email: ada.email, name: ada.name, locale: null }, memberships: ADA_MEMBERSHIPS() });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.text).not.toMatch(/scrypt|password/i);
  });

  it("answers a wrong password, an unknown address and a password-less account with the same 401 invalid_credentials", async () => {
    const user = await api.createUser(orgA, { email: freshEmail("wrong"), password: PASSWORD, role: "viewer" });
    const email = (await api.admin<DashboardUser>("GET", `/dashboard/users/${user.id}`)).body.user.email;
    const sso = await oidcOnlyUser(orgA);
    const answers = [
      await signIn(email, `${PASSWORD}!`),
      await signIn(freshEmail("nobody"), PASSWORD),
      await signIn(sso.email, PASSWORD),
      await signIn(sso.email, ""),
    ];
    // An empty password is a validation failure before any account is looked at.
    expectProblem(answers.pop() as ApiResponse<unknown>, 422, "validation_failed");
    for (const res of answers) expectProblem(res, 401, "invalid_credentials");
    const [first, ...rest] = answers.map(withoutInstance);
    for (const other of rest) expect(other).toEqual(first);
    const headerNames = (res: ApiResponse<unknown>) => [...res.headers.keys()].filter((h) => h !== "date" && h !== "content-length").sort();
    for (const res of answers) expect(headerNames(res)).toEqual(headerNames(answers[0] as ApiResponse<unknown>));
    // The right password still works: the failures above did not lock the account.
    expect((await signIn(email, PASSWORD)).status).toBe(200);
  });

  it("checks a password hash even for an unknown address, so it answers about as slowly as a wrong password", async () => {
    const user = await api.createUser(orgA, { email: freshEmail("timing"), password: PASSWORD, role: "viewer" });
    const email = (await api.admin<DashboardUser>("GET", `/dashboard/users/${user.id}`)).body.user.email;
    const median = async (send: () => Promise<ApiResponse<unknown>>) => {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        expect((await send()).status).toBe(401);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[1] ?? 0;
    };
    const wrongPassword = await median(() => signIn(email, "not the password at all"));
    const unknownAddress = await median(() => signIn(freshEmail("ghost"), "not the password at all"));
    // A database miss alone answers in a few milliseconds; a scrypt check takes tens of them.
    expect(wrongPassword).toBeGreaterThan(15);
    expect(unknownAddress).toBeGreaterThan(wrongPassword * 0.3);
  });

  it("refuses malformed bodies with 422 and other media types with 415", async () => {
    expectProblem(await api.admin("POST", "/dashboard/sign-in", { email: "not-an-email", password: PASSWORD }), 422, "validation_failed");
    expectProblem(await api.admin("POST", "/dashboard/sign-in", { email: ada.email }), 422, "validation_failed");
    expectProblem(await api.admin("POST", "/dashboard/sign-in", { email: ada.email, password: PASSWORD, role: "admin" }), 422, "validation_failed");
    const form = await api.request("POST", "/api/admin/v1/dashboard/sign-in", {
      rawBody: `email=${encodeURIComponent(ada.email)}&password=x`,
      headers: { authorization: `Bearer ${service.runtime.ctx.config.adminToken}`, "content-type": "application/x-www-form-urlencoded" },
    });
    expectProblem(form, 415, "unsupported_media_type");
  });

  it("after 10 failures for an address within 15 minutes, refuses it with 429 and Retry-After — even the right password — and no other address", async () => {
    const email = freshEmail("guessed");
    const user = await api.createUser(orgA, { email, password: PASSWORD, role: "viewer" });
    const bystander = await api.createUser(orgA, { email: freshEmail("bystander"), password: PASSWORD, role: "viewer" });
    const bystanderEmail = (await api.admin<DashboardUser>("GET", `/dashboard/users/${bystander.id}`)).body.user.email;
    await awayFromWindowEnd(900, 30);
    for (let i = 0; i < 10; i++) {
      // Counted per lower-cased address: changing the case does not reset the count.
      const variant = i % 2 === 0 ? email.toUpperCase() : email;
      expectProblem(await signIn(variant, `guess ${i}`), 401, "invalid_credentials");
    }
    const refused = await signIn(email, PASSWORD);
    const problem = expectProblem(refused, 429, "rate_limited");
    expect(problem.detail).not.toContain(user.id);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expectProblem(await signIn(email.toUpperCase(), `guess again`), 429, "rate_limited");
    // Another address is unaffected, and successes are not counted as failures.
    for (let i = 0; i < 3; i++) expect((await signIn(bystanderEmail, PASSWORD)).status).toBe(200);
  }, 75_000);

  it("counts failures for unknown addresses too", async () => {
    const email = freshEmail("unknown-guessed");
    await awayFromWindowEnd(900, 30);
    for (let i = 0; i < 10; i++) expectProblem(await signIn(email, `guess ${i}`), 401, "invalid_credentials");
    expectProblem(await signIn(email, "guess 11"), 429, "rate_limited");
  }, 75_000);
});

describe("POST /dashboard/users/lookup", () => {
  it("finds a user by email, case-insensitively, with the same shape as sign-in", async () => {
    const res = await api.admin<DashboardUser>("POST", "/dashboard/users/lookup", { email: ada.email.toLowerCase() });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual((await signIn(ada.email, ada.password)).body);
  });

  it("finds a single-sign-on user who has no password", async () => {
    const sso = await oidcOnlyUser(orgB);
    const res = await api.admin<DashboardUser>("POST", "/dashboard/users/lookup", { email: sso.email });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      user: { id: sso.id, email: sso.email, name: "Single Sign-On", locale: null },
      memberships: [{ org_id: orgB, org_name: "Acme Mapping", role: "viewer" }],
    });
  });

  it("answers 404 not_found for an unknown address, internationalised ones included, and 422 for a string that is no address", async () => {
    expectProblem(await api.admin("POST", "/dashboard/users/lookup", { email: freshEmail("nobody") }), 404, "not_found");
    expectProblem(await api.admin("POST", "/dashboard/users/lookup", { email: "jörg@bücher.example" }), 404, "not_found");
    expectProblem(await api.admin("POST", "/dashboard/users/lookup", { email: "jörg" }), 422, "validation_failed");
  });
});

describe("GET /dashboard/users/{user_id}", () => {
  it("answers the user and memberships, and follows membership and role changes", async () => {
    const email = freshEmail("changing");
    const { id } = await api.createUser(orgA, { email, password: PASSWORD, role: "viewer", name: "Changing Roles" });
    const before = await api.admin<DashboardUser>("GET", `/dashboard/users/${id}`);
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual({
      user: { id, email, name: "Changing Roles", locale: null },
      memberships: [{ org_id: orgA, org_name: "zenith surveys", role: "viewer" }],
    });

    await api.createUser(orgA, { email, password: PASSWORD, role: "editor" });
    await api.createUser(orgB, { email, password: PASSWORD, role: "admin" });
    const after = await api.admin<DashboardUser>("GET", `/dashboard/users/${id}`);
    expect(after.body.memberships).toEqual([
      { org_id: orgB, org_name: "Acme Mapping", role: "admin" },
      { org_id: orgA, org_name: "zenith surveys", role: "editor" },
    ]);
  });

  it("answers 404 not_found for an unknown id", async () => {
    expectProblem(await api.admin("GET", "/dashboard/users/user_00000000000000000000000000"), 404, "not_found");
  });
});

describe("PATCH /dashboard/users/{user_id}", () => {
  it("saves the user's language, answers it at sign-in and lookup, and clears it with null", async () => {
    const email = freshEmail("polyglot");
    const { id } = await api.createUser(orgA, { email, password: PASSWORD, role: "viewer", name: "Polyglot" });
    const set = await api.admin<DashboardUser>("PATCH", `/dashboard/users/${id}`, { locale: "fr" });
    expect(set.status, set.text).toBe(200);
    expect(set.body.user).toEqual({ id, email, name: "Polyglot", locale: "fr" });
    expect((await signIn(email, PASSWORD)).body.user.locale).toBe("fr");
    expect((await api.admin<DashboardUser>("GET", `/dashboard/users/${id}`)).body.user.locale).toBe("fr");

    const cleared = await api.admin<DashboardUser>("PATCH", `/dashboard/users/${id}`, { locale: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.user.locale).toBeNull();
    expect((await api.admin<DashboardUser>("POST", "/dashboard/users/lookup", { email })).body.user.locale).toBeNull();
  });

  it("refuses a language without a catalogue, a missing locale and extra fields (422), and answers 404 for an unknown user", async () => {
    const { id } = await api.createUser(orgA, { email: freshEmail("strict"), password: PASSWORD, role: "viewer" });
    for (const body of [{ locale: "xx" }, { locale: "fr-FR" }, { locale: "" }, {}, { locale: "de", name: "Mallory" }]) {
      expectProblem(await api.admin("PATCH", `/dashboard/users/${id}`, body), 422, "validation_failed");
    }
    expect((await api.admin<DashboardUser>("GET", `/dashboard/users/${id}`)).body.user.locale).toBeNull();
    expectProblem(await api.admin("PATCH", "/dashboard/users/user_00000000000000000000000000", { locale: "de" }), 404, "not_found");
  });

  it("is for the operator only", async () => {
    const { id } = await api.createUser(orgA, { email: freshEmail("noop"), password: PASSWORD, role: "admin" });
    const res = await fetch(`${service.url}/api/admin/v1/dashboard/users/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ locale: "de" }),
    });
    expect(res.status).toBe(401);
  });
});

describe("POST /dashboard/tokens", () => {
  const issue = (userId: string, orgId: string) => api.admin<DashboardToken>("POST", "/dashboard/tokens", { user_id: userId, org_id: orgId });

  /** Ada is viewer in B, editor in C and admin in A. */
  const ROLE_ORG: Record<Role, () => string> = { viewer: () => orgB, editor: () => orgC, admin: () => orgA };

  it.each(["viewer", "editor", "admin"] as const)("gives a %s exactly the role's scopes, for 900 s, naming the org's dashboard client", async (role) => {
    const orgId = ROLE_ORG[role]();
    const res = await issue(ada.id, orgId);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 900, role, org: { id: orgId } });
    expect(res.body.scope.split(" ").sort()).toEqual([...ROLE_SCOPES[role]].sort());

    const { payload } = decodeJwt(res.body.access_token);
    expect(String(payload.scope).split(" ").sort()).toEqual([...ROLE_SCOPES[role]].sort());
    expect(payload).toMatchObject({ kind: "dashboard", org: orgId });
    expect(Number(payload.exp) - Number(payload.iat)).toBe(900);
    expect(payload.sub).toBe(payload.client_id);
    // The token does not name the user: it is shared by every member with this role.
    expect(JSON.stringify(payload)).not.toContain(ada.id);
    expect(JSON.stringify(payload).toLowerCase()).not.toContain(ada.email.toLowerCase());

    const [client] = await service.runtime.ctx.db
      .select()
      .from(apiClients)
      .where(eq(apiClients.id, String(payload.client_id)));
    expect(client).toMatchObject({ kind: "dashboard", orgId, name: "Dashboard", revokedAt: null });
  });

  it("names the same dashboard client for every role of one organisation, and another for another organisation", async () => {
    const second = await api.createUser(orgA, { email: freshEmail("colleague"), password: PASSWORD, role: "viewer" });
    const clientOf = async (userId: string, orgId: string) => decodeJwt((await issue(userId, orgId)).body.access_token).payload.client_id;
    expect(await clientOf(second.id, orgA)).toBe(await clientOf(ada.id, orgA));
    expect(await clientOf(ada.id, orgB)).not.toBe(await clientOf(ada.id, orgA));
  });

  it("creates one dashboard client when an organisation's first tokens are asked for at once", async () => {
    const orgId = await api.createOrg("Rush hour");
    const staff = await Promise.all(
      ["admin", "editor", "viewer", "viewer", "editor", "admin"].map((role) =>
        api.createUser(orgId, { email: freshEmail("rush"), password: PASSWORD, role: role as Role }),
      ),
    );
    const tokens = await Promise.all(staff.map((user) => issue(user.id, orgId)));
    for (const res of tokens) expect(res.status, res.text).toBe(200);
    const clientIds = new Set(tokens.map((res) => decodeJwt(res.body.access_token).payload.client_id));
    expect(clientIds.size).toBe(1);
    const rows = await service.runtime.ctx.db
      .select()
      .from(apiClients)
      .where(and(eq(apiClients.orgId, orgId), eq(apiClients.kind, "dashboard")));
    expect(rows).toHaveLength(1);
  });

  it("lets a viewer read but not create missions (403 insufficient_scope), and an editor create them", async () => {
    const viewer = (await issue(ada.id, orgB)).body.access_token;
    const editor = (await issue(ada.id, orgC)).body.access_token;
    expect((await api.request("GET", "/api/v1/missions", { token: viewer })).status).toBe(200);
    const refused = await api.request("POST", "/api/v1/missions", { token: viewer, body: { title: "Not allowed", bounds: square(), required_images: 1 } });
    expectProblem(refused, 403, "insufficient_scope");
    const created = await api.request<{ id: string }>("POST", "/api/v1/missions", {
      token: editor,
      body: { title: "Editor's", bounds: square(), required_images: 1 },
    });
    expect(created.status, created.text).toBe(201);
    // Created in the token's organisation: C's viewer-less reader (B) cannot see it.
    expectProblem(await api.request("GET", `/api/v1/missions/${created.body.id}`, { token: viewer }), 404, "not_found");
  });

  it("gets the dashboard's rate limits, not a partner client's", async () => {
    const res = await api.request("GET", "/api/v1/missions", { token: (await issue(ada.id, orgB)).body.access_token });
    expect(res.status).toBe(200);
    expectRateLimitHeaders(res, 1200, 60);
  });

  it("answers 404 for an unknown user, and 403 not_a_member for an organisation the user is not in or that does not exist", async () => {
    expectProblem(await issue("user_00000000000000000000000000", orgA), 404, "not_found");
    const outsider = await api.createUser(orgB, { email: freshEmail("outsider"), password: PASSWORD, role: "admin" });
    expectProblem(await issue(outsider.id, orgA), 403, "not_a_member");
    expectProblem(await issue(outsider.id, "org_00000000000000000000000000"), 403, "not_a_member");
    expectProblem(await api.admin("POST", "/dashboard/tokens", { user_id: outsider.id }), 422, "validation_failed");
  });

  it("stops every dashboard token of an organisation when the operator revokes its dashboard client; the next token gets a fresh client", async () => {
    const orgId = await api.createOrg("Cut off");
    const user = await api.createUser(orgId, { email: freshEmail("cutoff"), password: PASSWORD, role: "admin" });
    const first = (await issue(user.id, orgId)).body.access_token;
    expect((await api.request("GET", "/api/v1/missions", { token: first })).status).toBe(200);
    const clientId = String(decodeJwt(first).payload.client_id);
    expect((await api.admin("DELETE", `/clients/${clientId}`)).status).toBe(204);
    expectProblem(await api.request("GET", "/api/v1/missions", { token: first }), 401, "invalid_token");

    const next = (await issue(user.id, orgId)).body.access_token;
    expect(decodeJwt(next).payload.client_id).not.toBe(clientId);
    expect((await api.request("GET", "/api/v1/missions", { token: next })).status).toBe(200);
  });
});

describe("dashboard rate limits", () => {
  it("are enforced from DASHBOARD_RATE_LIMIT_* while partner clients keep theirs", async () => {
    const limited = await startTestService({ dashboardRateLimit: { perMinute: 3, perHour: 100 } });
    try {
      const client = new TestClient(limited);
      const orgId = await client.createOrg("Small dashboard");
      const user = await client.createUser(orgId, { email: freshEmail("limited"), password: PASSWORD, role: "viewer" });
      const token = (await client.dashboardToken(user.id, orgId)).access_token;
      const partner = await client.token(await client.createClient(orgId, ["missions:read"]));
      await awayFromWindowEnd(60, 10);
      for (let i = 0; i < 3; i++) {
        const res = await client.request("GET", "/api/v1/missions", { token });
        expect(res.status, res.text).toBe(200);
        expect(expectRateLimitHeaders(res, 3, 60).remaining).toBe(2 - i);
      }
      expectProblem(await client.request("GET", "/api/v1/missions", { token }), 429, "rate_limited");
      const partnerRes = await client.request("GET", "/api/v1/missions", { token: partner });
      expect(partnerRes.status).toBe(200);
      expectRateLimitHeaders(partnerRes, 60, 60);
    } finally {
      await limited.close();
    }
  }, 55_000);
});
