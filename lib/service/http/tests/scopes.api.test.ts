// The scope matrix of the mission routes, and the operator interface's refusal of anything but the
// ADMIN_TOKEN.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "@/lib/auth/scopes";
import { expectBearerChallenge, expectProblem } from "./assertions";
import { TestClient, square } from "./client";
import { ADMIN_TOKEN, startTestService, type TestService } from "./harness";

let service: TestService;
let api: TestClient;
let orgId: string;
/** Token holding every partner scope of the org, to create the missions the matrix works on. */
let ownerToken: string;
/** A missions:read token of the org that reads missions back after a refused write. */
let checkerToken: string;
/** One token per credential under test, by label. */
const tokens = new Map<string, string>();

type Credential = Scope | "zoomer";
const CREDENTIALS: Credential[] = ["missions:read", "missions:write", "submissions:read", "webhooks:manage", "zoomer"];

interface RouteCase {
  name: string;
  /** The scope the route needs. */
  needs: Scope;
  /** Sends the request; `missionId` is a fresh active mission of the org. */
  send: (token: string, missionId: string) => ReturnType<TestClient["request"]>;
  expectedStatus: number;
}

const ROUTES: RouteCase[] = [
  { name: "GET /missions", needs: "missions:read", expectedStatus: 200, send: (token) => api.request("GET", "/api/v1/missions", { token }) },
  {
    name: "POST /missions",
    needs: "missions:write",
    expectedStatus: 201,
    send: (token) => api.request("POST", "/api/v1/missions", { token, body: { title: "Scope matrix", bounds: square(), required_images: 2 } }),
  },
  { name: "GET /missions/{id}", needs: "missions:read", expectedStatus: 200, send: (token, id) => api.request("GET", `/api/v1/missions/${id}`, { token }) },
  {
    name: "PATCH /missions/{id}",
    needs: "missions:write",
    expectedStatus: 200,
    send: (token, id) => api.request("PATCH", `/api/v1/missions/${id}`, { token, body: { title: "Renamed by the matrix" } }),
  },
  {
    name: "POST /missions/{id}/cancel",
    needs: "missions:write",
    expectedStatus: 200,
    send: (token, id) => api.request("POST", `/api/v1/missions/${id}/cancel`, { token }),
  },
];

const MATRIX = ROUTES.flatMap((route) =>
  CREDENTIALS.map((credential) => {
    const allowed = credential === route.needs;
    return { name: `${route.name} with ${credential} → ${allowed ? route.expectedStatus : 403}`, credential, allowed, case: route };
  }),
);

beforeAll(async () => {
  // Up to three requests a case, all from one organisation (whose clients share its limit): the
  // limits have their own suite.
  service = await startTestService({ rateLimit: { perMinute: 10_000, perHour: 100_000, tokenPerMinute: 1000, tokenPerMinutePerIp: 10_000 } });
  api = new TestClient(service);
  const owner = await api.partner();
  orgId = owner.orgId;
  ownerToken = owner.token;
  checkerToken = await api.token(await api.createClient(orgId, ["missions:read"]));
  await Promise.all(
    CREDENTIALS.map(async (credential) => {
      if (credential === "zoomer") {
        const zoomer = await api.createZoomer();
        tokens.set(credential, await api.token(zoomer));
      } else {
        tokens.set(credential, await api.token(await api.createClient(orgId, [credential])));
      }
    }),
  );
});
afterAll(() => service.close());

function tokenFor(credential: Credential): string {
  const token = tokens.get(credential);
  if (!token) throw new Error(`no token for ${credential}`);
  return token;
}

describe("scope matrix of the mission routes", () => {
  it("the zoomer token carries submissions:write only", async () => {
    const zoomer = await api.createZoomer();
    const res = await api.request<{ scope: string }>("POST", "/api/v1/auth/token", {
      body: { grant_type: "client_credentials", client_id: zoomer.client_id, client_secret: zoomer.client_secret },
    });
    expect(res.body.scope).toBe("submissions:write");
  });

  it.each(MATRIX)("$name", async ({ credential, allowed, case: route }) => {
    const mission = await api.createMission(ownerToken, { title: "Matrix target" });
    const res = await route.send(tokenFor(credential), mission.id);
    if (allowed) {
      expect(res.status, res.text).toBe(route.expectedStatus);
      return;
    }
    const problem = expectProblem(res, 403, "insufficient_scope");
    expect(problem.detail).toContain(route.needs);
    expectBearerChallenge(res, "insufficient_scope");
    expect(res.headers.get("www-authenticate")).toContain(`scope="${route.needs}"`);
    // A refused write changed nothing.
    const after = await api.request<{ title: string; status: string }>("GET", `/api/v1/missions/${mission.id}`, { token: checkerToken });
    expect(after.body).toMatchObject({ title: "Matrix target", status: "active" });
  });
});

describe("operator routes", () => {
  const ADMIN_ROUTES: { method: string; path: string; body?: unknown }[] = [
    { method: "POST", path: "/orgs", body: { name: "Intruder org" } },
    { method: "POST", path: "/orgs/{org}/clients", body: { name: "intruder", scopes: ["missions:read"] } },
    { method: "DELETE", path: "/clients/cli_doesnotexist" },
    { method: "POST", path: "/orgs/{org}/users", body: { email: "intruder@example.com", password: "correct horse battery", role: "admin" } },
    { method: "POST", path: "/orgs/{org}/api-keys", body: { name: "intruder" } },
    { method: "POST", path: "/zoomers", body: { name: "intruder" } },
    { method: "POST", path: "/dashboard/sign-in", body: { email: "intruder@example.com", password: "correct horse battery" } },
    { method: "POST", path: "/dashboard/users/lookup", body: { email: "intruder@example.com" } },
    { method: "GET", path: "/dashboard/users/user_doesnotexist" },
    { method: "POST", path: "/dashboard/tokens", body: { user_id: "user_doesnotexist", org_id: "{org}" } },
  ];

  const callers: { label: string; authorization: () => string | undefined }[] = [
    { label: "no token", authorization: () => undefined },
    { label: "a wrong admin token", authorization: () => `Bearer ${ADMIN_TOKEN}x` },
    { label: "the admin token under another scheme", authorization: () => `Token ${ADMIN_TOKEN}` },
    { label: "a partner access token", authorization: () => `Bearer ${ownerToken}` },
    { label: "a zoomer access token", authorization: () => `Bearer ${tokenFor("zoomer")}` },
  ];

  const cases = ADMIN_ROUTES.flatMap((route) =>
    callers.map((caller) => ({ ...route, name: `${route.method} /api/admin/v1${route.path} with ${caller.label}`, authorization: caller.authorization })),
  );

  it.each(cases)("$name → 401", async ({ method, path, body, authorization }) => {
    const header = authorization();
    const res = await api.request(method, `/api/admin/v1${path.replace("{org}", orgId)}`, {
      body: body === undefined ? undefined : JSON.parse(JSON.stringify(body).replace("{org}", orgId)),
      headers: header ? { authorization: header } : {},
    });
    expectProblem(res, 401, "unauthorized");
    expectBearerChallenge(res);
  });

  it("accepts the real admin token (the control for the table above)", async () => {
    const res = await api.request("POST", "/api/admin/v1/orgs", { body: { name: "Control org" }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status, res.text).toBe(201);
  });
});
